import type {
  AgentView,
  AppearanceInput,
  BotEventsView,
  BotProviderView,
  BusinessHours,
  BusinessHoursView,
  ChannelIdentityView,
  ChannelView,
  CreateAgentRequest,
  CreateBotProviderRequest,
  CreateChannelRequest,
  CreateDepartmentRequest,
  DeliveryListQuery,
  DeliveryListView,
  DeliveryView,
  DepartmentView,
  ErasureList,
  ErasurePending,
  ReplayRange,
  ReplayRangeView,
  ReportQuery,
  ReportView,
  TranscriptSettings,
  TranscriptSettingsView,
  TriggerRules,
  UpdateAgentRequest,
  UpdateChannelIdentity,
  UpdateChannelRequest,
  UpdateDepartmentRequest,
  WidgetAppearanceView,
  WidgetSettings,
} from '@svc/protocol';
import { authorizedCaller, type TokenOptions } from '../api/api-client.ts';

/** An agent as `GET/PATCH /api/v1/agents/:id` answer it: with the channels whose chats it receives. */
export type AgentDetails = AgentView & { channel_ids: number[] };
/** `POST /api/v1/agents` answers the new agent's API token once. */
export type CreatedAgent = AgentView & { token: string };

function reportParams(query: ReportQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  return params.toString();
}

/**
 * The admin API (docs/admin-api.md) with an admin agent's own token: what the admin panel reads and changes.
 * Every failure is an ApiError carrying the API's message, which the panel shows next to the form.
 */
export function createAdminApi(options: TokenOptions) {
  const call = authorizedCaller(options);
  const id = (value: number) => encodeURIComponent(String(value));
  const channel = (channelId: number) => `/api/v1/channels/${id(channelId)}`;
  const department = (departmentId: number) => `/api/v1/departments/${id(departmentId)}`;

  return {
    listAgents: async () => (await call<{ agents: AgentView[] }>('/api/v1/agents')).agents,
    getAgent: (agentId: number) => call<AgentDetails>(`/api/v1/agents/${id(agentId)}`),
    createAgent: (body: CreateAgentRequest) => call<CreatedAgent>('/api/v1/agents', { method: 'POST', body }),
    updateAgent: (agentId: number, body: UpdateAgentRequest) =>
      call<AgentDetails>(`/api/v1/agents/${id(agentId)}`, { method: 'PATCH', body }),
    /** Uploads an image as the agent's photo (PNG, JPEG, GIF or WebP, at most 2 MB). */
    putAgentPhoto: (agentId: number, file: File) =>
      call<AgentDetails>(`/api/v1/agents/${id(agentId)}/photo?name=${encodeURIComponent(file.name)}`, { method: 'PUT', file }),
    deleteAgentPhoto: (agentId: number) => call<AgentDetails>(`/api/v1/agents/${id(agentId)}/photo`, { method: 'DELETE' }),

    listChannels: async () => (await call<{ channels: ChannelView[] }>('/api/v1/channels')).channels,
    getChannel: (channelId: number) => call<ChannelView>(channel(channelId)),
    createChannel: (body: CreateChannelRequest) => call<ChannelView>('/api/v1/channels', { method: 'POST', body }),
    updateChannel: (channelId: number, body: UpdateChannelRequest) => call<ChannelView>(channel(channelId), { method: 'PATCH', body }),
    deleteChannel: (channelId: number) => call<void>(channel(channelId), { method: 'DELETE' }),
    rotateSigningSecret: (channelId: number) => call<ChannelView>(`${channel(channelId)}/rotate-signing-secret`, { method: 'POST' }),
    getTriggers: (channelId: number) => call<TriggerRules>(`${channel(channelId)}/triggers`),
    putTriggers: (channelId: number, rules: TriggerRules) =>
      call<TriggerRules>(`${channel(channelId)}/triggers`, { method: 'PUT', body: rules }),
    getAppearance: (channelId: number) => call<WidgetAppearanceView>(`${channel(channelId)}/appearance`),
    putAppearance: (channelId: number, body: AppearanceInput) =>
      call<WidgetAppearanceView>(`${channel(channelId)}/appearance`, { method: 'PUT', body }),
    listDeliveries: (channelId: number, query: DeliveryListQuery = {}) => {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
      const search = params.size > 0 ? `?${params.toString()}` : '';
      return call<DeliveryListView>(`${channel(channelId)}/deliveries${search}`);
    },
    replayDelivery: (channelId: number, deliveryId: number) =>
      call<DeliveryView>(`${channel(channelId)}/deliveries/${id(deliveryId)}/replay`, { method: 'POST' }),
    replayRange: (channelId: number, body: ReplayRange) =>
      call<ReplayRangeView>(`${channel(channelId)}/deliveries/replay`, { method: 'POST', body }),

    getBusinessHours: (channelId: number) => call<BusinessHoursView>(`${channel(channelId)}/business-hours`),
    putBusinessHours: (channelId: number, body: BusinessHours) =>
      call<BusinessHoursView>(`${channel(channelId)}/business-hours`, { method: 'PUT', body }),
    deleteBusinessHours: (channelId: number) => call<void>(`${channel(channelId)}/business-hours`, { method: 'DELETE' }),
    getIdentity: (channelId: number) => call<ChannelIdentityView>(`${channel(channelId)}/identity`),
    updateIdentity: (channelId: number, body: UpdateChannelIdentity) =>
      call<ChannelIdentityView>(`${channel(channelId)}/identity`, { method: 'PATCH', body }),
    rotateIdentitySecret: (channelId: number) =>
      call<ChannelIdentityView>(`${channel(channelId)}/identity/rotate-secret`, { method: 'POST' }),
    getTranscripts: (channelId: number) => call<TranscriptSettingsView>(`${channel(channelId)}/transcripts`),
    updateTranscripts: (channelId: number, body: TranscriptSettings) =>
      call<TranscriptSettingsView>(`${channel(channelId)}/transcripts`, { method: 'PATCH', body }),
    /** The public settings a widget's loader reads: what `svc_api.isCallbackEnabled` answers right now. */
    widgetSettings: (publicId: string) => call<WidgetSettings>(`/widget-api/${encodeURIComponent(publicId)}/settings`),

    listDepartments: async () => (await call<{ departments: DepartmentView[] }>('/api/v1/departments')).departments,
    createDepartment: (body: CreateDepartmentRequest) => call<DepartmentView>('/api/v1/departments', { method: 'POST', body }),
    updateDepartment: (departmentId: number, body: UpdateDepartmentRequest) =>
      call<DepartmentView>(department(departmentId), { method: 'PATCH', body }),
    deleteDepartment: (departmentId: number) => call<void>(department(departmentId), { method: 'DELETE' }),

    listBotProviders: async () => (await call<{ bot_providers: BotProviderView[] }>('/api/v1/bot-providers')).bot_providers,
    createBotProvider: (body: CreateBotProviderRequest) => call<BotProviderView>('/api/v1/bot-providers', { method: 'POST', body }),
    botEvents: (chatId: number) => call<BotEventsView>(`/api/v1/chats/${id(chatId)}/bot-events`),

    /** Everything stored about one customer of a channel, as the JSON file the API writes (GDPR art. 15, 20). */
    exportClient: (channelId: number, clientId: string) =>
      call<Blob>(`${channel(channelId)}/clients/${encodeURIComponent(clientId)}/export`, { accept: 'application/json' }),
    /** Erases the customer, their chats, messages, files, page views and pending deliveries (GDPR art. 17).
     * Undefined when done (204); the 202's body when the database's files still hold a copy while another process
     * reads the database. */
    eraseClient: (channelId: number, clientId: string) =>
      call<ErasurePending | undefined>(`${channel(channelId)}/clients/${encodeURIComponent(clientId)}`, { method: 'DELETE' }),
    /** The audit record of erasures, newest first, each with whether the database's files are emptied of it yet. */
    listErasures: async () => (await call<ErasureList>('/api/v1/erasures')).erasures,

    report: (query: ReportQuery) => call<ReportView>(`/api/v1/reports?${reportParams(query)}`),
    /** The report's days as the CSV file the API writes (`Accept: text/csv`). */
    reportCsv: (query: ReportQuery) => call<Blob>(`/api/v1/reports?${reportParams(query)}`, { accept: 'text/csv' }),
  };
}
export type AdminApi = ReturnType<typeof createAdminApi>;
