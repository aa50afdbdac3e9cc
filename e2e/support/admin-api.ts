import { randomUUID } from 'node:crypto';
import type { AgentRole, AgentView, BotProviderView, ChannelView, DepartmentView } from '@svc/protocol';
import { requestJson } from './http-json.ts';

export interface TestAgent extends AgentView {
  password: string;
  /** The agent API token issued at creation. */
  token: string;
}

/** Unique within the run and across runs against one database, so tests never see each other's data. */
export const uniqueSuffix = () => randomUUID().slice(0, 8);

/** The admin API of the contract, as an operator would call it. */
export class AdminApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private call<T>(path: string, method: string, body?: unknown): Promise<T> {
    return requestJson<T>(`${this.baseUrl}${path}`, { method, token: this.token, body });
  }

  async createAgent(name = 'Test Agent', role: AgentRole = 'agent'): Promise<TestAgent> {
    const password = `pw-${uniqueSuffix()}`;
    const email = `agent-${uniqueSuffix()}@example.com`;
    const created = await this.call<AgentView & { token: string }>('/api/v1/agents', 'POST', { name, email, password, role });
    return { ...created, password };
  }

  createChatApiChannel(options: { name: string; webhookUrl: string; agentIds: number[] }): Promise<ChannelView> {
    return this.call<ChannelView>('/api/v1/channels', 'POST', {
      kind: 'chat_api',
      name: options.name,
      webhook_url: options.webhookUrl,
      chunked: false,
      agent_ids: options.agentIds,
    });
  }

  createWidgetChannel(options: { name: string; agentIds: number[] }): Promise<ChannelView> {
    return this.call<ChannelView>('/api/v1/channels', 'POST', { kind: 'widget', name: options.name, agent_ids: options.agentIds });
  }

  getChannel(id: number): Promise<ChannelView> {
    return this.call<ChannelView>(`/api/v1/channels/${id}`, 'GET');
  }

  /** Any admin API GET, for checking what a form stored. */
  get<T>(path: string): Promise<T> {
    return this.call<T>(path, 'GET');
  }

  createDepartment(name: string, agentIds: number[] = []): Promise<DepartmentView> {
    return this.call<DepartmentView>('/api/v1/departments', 'POST', { name, agent_ids: agentIds });
  }

  /** Points a widget channel's server webhooks at the owner's server. */
  async setWebhook(channel: ChannelView, url: string): Promise<void> {
    await this.call<ChannelView>(`/api/v1/channels/${channel.id}`, 'PATCH', { webhook_url: url });
  }

  /** Registers a bot provider and attaches it to the channel: new chats of the channel start with the bot. */
  async attachBot(channel: ChannelView, providerEndpoint: string): Promise<void> {
    const provider = await this.call<BotProviderView>('/api/v1/bot-providers', 'POST', { name: 'E2E bot', endpoint: providerEndpoint });
    await this.call<ChannelView>(`/api/v1/channels/${channel.id}`, 'PATCH', {
      bot: { provider_id: provider.provider_id, token: `bot-${uniqueSuffix()}` },
    });
  }
}
