import {
  agentMessageSchema,
  searchQuerySchema,
  searchResultsViewSchema,
  clientExportSchema,
  erasureListSchema,
  erasurePendingSchema,
  widgetAppearanceViewSchema,
  widgetSettingsSchema,
  agentViewSchema,
  appearanceInputSchema,
  botEventAnswerSchema,
  botEventsViewSchema,
  botProviderViewSchema,
  businessHoursViewSchema,
  callViewSchema,
  businessHoursSchema,
  callListQuerySchema,
  callStatusUpdateSchema,
  cannedReplyCreateSchema,
  cannedReplyPatchSchema,
  cannedReplyViewSchema,
  channelIdentityViewSchema,
  channelViewSchema,
  chatApiInboundSchema,
  chatApiIntakeAnswerSchema,
  chatApiStatusSchema,
  chatDepartmentSchema,
  chatListQuerySchema,
  chatListViewSchema,
  chatViewSchema,
  closeChatSchema,
  createAgentSchema,
  createBotProviderSchema,
  createCallSchema,
  createChannelSchema,
  createDepartmentSchema,
  deliveryListQuerySchema,
  deliveryListViewSchema,
  deliveryViewSchema,
  departmentViewSchema,
  loginSchema,
  messageListQuerySchema,
  messageListViewSchema,
  messageViewSchema,
  noteSchema,
  offlineMessageSchema,
  offlineMessageViewSchema,
  presenceSchema,
  providerEventSchema,
  readSchema,
  replayRangeSchema,
  replayRangeViewSchema,
  reportQuerySchema,
  reportViewSchema,
  transcriptSettingsSchema,
  transcriptSettingsViewSchema,
  transferSchema,
  transferTargetsViewSchema,
  triggerRulesSchema,
  typingSchema,
  updateAgentSchema,
  updateChannelIdentitySchema,
  updateChannelSchema,
  updateDepartmentSchema,
  uploadViewSchema,
} from '@svc/protocol';
import { z } from 'zod';

/**
 * Every HTTP route of the server, once: `GET /api/openapi.json` is generated from this table and the zod
 * schemas the routes validate with, and server/test/openapi-drift.test.ts fails when the routers and this
 * table disagree. Adding a route is one entry here.
 */
export interface ApiRoute {
  method: HttpMethod;
  /** As the router holds it: `/api/v1/chats/:id`. */
  path: string;
  tag: ApiTag;
  summary: string;
  auth: RouteAuth;
  query?: z.ZodType;
  body?: z.ZodType | RawBody;
  /** Status code to answer; `null`: no body; a list: the media types `Accept` chooses between. Errors (`4XX`,
   * `5XX`) are the same for every route. */
  responses: Record<number, z.ZodType | RawBody | (z.ZodType | RawBody)[] | null>;
  /** Error answers a caller should plan for on this route, beyond the `4XX`/`5XX` every route has: why it comes,
   * and whether it carries `Retry-After`. */
  refusals?: Record<number, { why: string; retryAfter: boolean }>;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options';
export const apiTags = ['Chat API', 'Bot API', 'Admin API', 'Agent API', 'Widget', 'Operations'] as const;
export type ApiTag = (typeof apiTags)[number];
/**
 * `admin`: the admin token or an admin agent's token; `agent`: an agent token; `endpoint`: the secret path of
 * a Chat API endpoint; `bot_token`: the provider id and channel token in the path (spec 4.2), and with
 * `bot_oauth` also the access token of spec 5.3; `metrics`: the admin token or SVC_METRICS_TOKEN.
 */
export type RouteAuth = 'none' | 'admin' | 'agent' | 'agent_or_admin' | 'endpoint' | 'bot_token' | 'bot_oauth' | 'metrics';

/** A body that is not JSON: its media type and what it holds. */
export interface RawBody {
  contentType: string;
  schema: z.ZodType;
}
const fileBody: RawBody = { contentType: 'application/octet-stream', schema: z.string().describe('The file itself.') };
const fileNameQuery = z.object({ name: z.string().min(1).describe('The file name, e.g. photo.png.') });

/** This document: OpenAPI's own schema describes it (https://spec.openapis.org/oas/3.1/schema). */
const openApiDocument = z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }) });
const reportCsv: RawBody = {
  contentType: 'text/csv',
  schema: z.string().describe('Asked for with `Accept: text/csv`: a header row, then one row per day, `date` (YYYY-MM-DD) first.'),
};
const chat = z.object({ chat: chatViewSchema });
const message = z.object({ message: messageViewSchema });
const agentWithChannels = agentViewSchema.extend({ channel_ids: z.array(z.number().int()) });
const agentAnswer = z.object({ agent: agentViewSchema });
const call = z.object({ call: callViewSchema });

const chatApi = (r: Omit<ApiRoute, 'tag'>): ApiRoute => ({ ...r, tag: 'Chat API' });
const bot = (r: Omit<ApiRoute, 'tag'>): ApiRoute => ({ ...r, tag: 'Bot API' });
const admin = (r: Omit<ApiRoute, 'tag' | 'auth'>): ApiRoute => ({ ...r, tag: 'Admin API', auth: 'admin' });
const agent = (r: Omit<ApiRoute, 'tag' | 'auth'>): ApiRoute => ({ ...r, tag: 'Agent API', auth: 'agent' });
const widget = (r: Omit<ApiRoute, 'tag' | 'auth'>): ApiRoute => ({ ...r, tag: 'Widget', auth: 'none' });
const preflight = (path: string): ApiRoute => widget({ method: 'options', path, summary: 'CORS preflight', responses: { 204: null } });

export const apiRoutes: readonly ApiRoute[] = [
  // ---- Chat API (spec 4.1) ----
  chatApi({
    method: 'post',
    path: '/chat-api/:random/:publicId',
    summary: "A customer's message or typing change (the channel's endpoint)",
    auth: 'endpoint',
    body: chatApiInboundSchema,
    responses: { 200: chatApiIntakeAnswerSchema },
    refusals: {
      503: {
        why: '`overloaded`: the node already works on as many requests as it admits at once (at most `SVC_MAX_IN_FLIGHT`), or its store is behind. Nothing was stored; send the same request again after `Retry-After` seconds (with the same `Idempotency-Key`, if any)',
        retryAfter: true,
      },
    },
  }),
  chatApi({
    method: 'get',
    path: '/chat-api/:random/:publicId/status',
    summary: "The channel's status: 1 while one of its agents is online",
    auth: 'endpoint',
    responses: { 200: { contentType: 'text/plain', schema: chatApiStatusSchema } },
  }),
  // ---- Bot API (spec 4.2, 6.1) ----
  bot({
    method: 'post',
    path: '/bot/webhooks/:providerId/:token',
    summary: "A provider's event: BOT_MESSAGE or INVITE_AGENT",
    auth: 'bot_token',
    body: providerEventSchema,
    responses: { 200: botEventAnswerSchema },
  }),
  bot({
    method: 'post',
    path: '/bot/providers/:providerId/:token',
    summary: "A provider's event, for providers registered with auth (Authorization: Bearer <access token>)",
    auth: 'bot_oauth',
    body: providerEventSchema,
    responses: { 200: botEventAnswerSchema },
  }),
  // ---- admin API: agents, channels, bot providers ----
  admin({
    method: 'post',
    path: '/api/v1/agents',
    summary: 'Create an agent',
    body: createAgentSchema,
    responses: { 201: agentViewSchema.extend({ token: z.string() }) },
  }),
  admin({
    method: 'get',
    path: '/api/v1/agents',
    summary: 'List agents',
    responses: { 200: z.object({ agents: z.array(agentViewSchema) }) },
  }),
  admin({ method: 'get', path: '/api/v1/agents/:id', summary: 'An agent', responses: { 200: agentWithChannels } }),
  admin({
    method: 'patch',
    path: '/api/v1/agents/:id',
    summary: 'Change an agent',
    body: updateAgentSchema,
    responses: { 200: agentWithChannels },
  }),
  admin({
    method: 'put',
    path: '/api/v1/agents/:id/photo',
    summary: "Upload an agent's photo",
    query: fileNameQuery,
    body: fileBody,
    responses: { 200: agentWithChannels },
  }),
  admin({ method: 'delete', path: '/api/v1/agents/:id/photo', summary: "Remove an agent's photo", responses: { 200: agentWithChannels } }),
  admin({
    method: 'post',
    path: '/api/v1/channels',
    summary: 'Create a channel',
    body: createChannelSchema,
    responses: { 201: channelViewSchema },
  }),
  admin({
    method: 'get',
    path: '/api/v1/channels',
    summary: 'List channels',
    responses: { 200: z.object({ channels: z.array(channelViewSchema) }) },
  }),
  admin({ method: 'get', path: '/api/v1/channels/:id', summary: 'A channel', responses: { 200: channelViewSchema } }),
  admin({
    method: 'patch',
    path: '/api/v1/channels/:id',
    summary: 'Change a channel',
    body: updateChannelSchema,
    responses: { 200: channelViewSchema },
  }),
  admin({ method: 'delete', path: '/api/v1/channels/:id', summary: 'Delete a channel', responses: { 204: null } }),
  admin({
    method: 'post',
    path: '/api/v1/channels/:id/rotate-signing-secret',
    summary: "Replace the channel's webhook signing secret",
    responses: { 200: channelViewSchema },
  }),
  admin({
    method: 'post',
    path: '/api/v1/bot-providers',
    summary: 'Register a bot provider',
    body: createBotProviderSchema,
    responses: { 201: botProviderViewSchema },
  }),
  admin({
    method: 'get',
    path: '/api/v1/bot-providers',
    summary: 'List bot providers',
    responses: { 200: z.object({ bot_providers: z.array(botProviderViewSchema) }) },
  }),
  admin({
    method: 'get',
    path: '/api/v1/chats/:id/bot-events',
    summary: "Every event exchanged with a chat's bot",
    responses: { 200: botEventsViewSchema },
  }),
  // ---- admin API: delivery log ----
  admin({
    method: 'get',
    path: '/api/v1/channels/:id/deliveries',
    summary: "The channel's outbound deliveries and their attempts",
    query: deliveryListQuerySchema,
    responses: { 200: deliveryListViewSchema },
  }),
  admin({
    method: 'post',
    path: '/api/v1/channels/:id/deliveries/:deliveryId/replay',
    summary: 'Send a delivery again',
    responses: { 201: deliveryViewSchema },
  }),
  admin({
    method: 'post',
    path: '/api/v1/channels/:id/deliveries/replay',
    summary: 'Send the failed deliveries of a time range again',
    body: replayRangeSchema,
    responses: { 200: replayRangeViewSchema },
  }),
  // ---- admin API: widget channels ----
  admin({
    method: 'get',
    path: '/api/v1/channels/:id/appearance',
    summary: "A widget's look and language",
    responses: { 200: widgetAppearanceViewSchema },
  }),
  admin({
    method: 'put',
    path: '/api/v1/channels/:id/appearance',
    summary: "Set a widget's look and language",
    body: appearanceInputSchema,
    responses: { 200: widgetAppearanceViewSchema },
  }),
  admin({
    method: 'get',
    path: '/api/v1/channels/:id/triggers',
    summary: "A widget's trigger rules",
    responses: { 200: triggerRulesSchema },
  }),
  admin({
    method: 'put',
    path: '/api/v1/channels/:id/triggers',
    summary: "Replace a widget's trigger rules",
    body: triggerRulesSchema,
    responses: { 200: triggerRulesSchema },
  }),
  admin({
    method: 'get',
    path: '/api/v1/channels/:id/identity',
    summary: 'Verified visitors: the identity secret',
    responses: { 200: channelIdentityViewSchema },
  }),
  admin({
    method: 'patch',
    path: '/api/v1/channels/:id/identity',
    summary: 'Require verified visitors, or not',
    body: updateChannelIdentitySchema,
    responses: { 200: channelIdentityViewSchema },
  }),
  admin({
    method: 'post',
    path: '/api/v1/channels/:id/identity/rotate-secret',
    summary: 'Replace the identity secret',
    responses: { 200: channelIdentityViewSchema },
  }),
  admin({
    method: 'get',
    path: '/api/v1/channels/:id/business-hours',
    summary: "A channel's business hours",
    responses: { 200: businessHoursViewSchema },
  }),
  admin({
    method: 'put',
    path: '/api/v1/channels/:id/business-hours',
    summary: "Set a channel's business hours",
    body: businessHoursSchema,
    responses: { 200: businessHoursViewSchema },
  }),
  admin({
    method: 'delete',
    path: '/api/v1/channels/:id/business-hours',
    summary: 'Remove business hours (always open)',
    responses: { 204: null },
  }),
  admin({
    method: 'get',
    path: '/api/v1/channels/:id/transcripts',
    summary: 'Transcript e-mail settings',
    responses: { 200: transcriptSettingsViewSchema },
  }),
  admin({
    method: 'patch',
    path: '/api/v1/channels/:id/transcripts',
    summary: 'Change transcript e-mail settings',
    body: transcriptSettingsSchema,
    responses: { 200: transcriptSettingsViewSchema },
  }),
  // ---- admin API: departments ----
  admin({
    method: 'post',
    path: '/api/v1/departments',
    summary: 'Create a department',
    body: createDepartmentSchema,
    responses: { 201: departmentViewSchema },
  }),
  {
    method: 'get',
    path: '/api/v1/departments',
    tag: 'Admin API',
    summary: 'List departments',
    auth: 'agent_or_admin',
    responses: { 200: z.object({ departments: z.array(departmentViewSchema) }) },
  },
  {
    method: 'get',
    path: '/api/v1/departments/:id',
    tag: 'Admin API',
    summary: 'A department',
    auth: 'agent_or_admin',
    responses: { 200: departmentViewSchema },
  },
  admin({
    method: 'patch',
    path: '/api/v1/departments/:id',
    summary: 'Change a department',
    body: updateDepartmentSchema,
    responses: { 200: departmentViewSchema },
  }),
  admin({ method: 'delete', path: '/api/v1/departments/:id', summary: 'Delete a department', responses: { 204: null } }),
  // ---- admin API: reports, privacy ----
  admin({
    method: 'get',
    path: '/api/v1/reports',
    summary: 'Chats, response times and ratings of a period (Accept: text/csv for one row per day)',
    query: reportQuerySchema,
    responses: { 200: [reportViewSchema, reportCsv] },
  }),
  admin({
    method: 'get',
    path: '/api/v1/channels/:id/clients/:client_id/export',
    summary: 'Everything stored about a customer',
    responses: { 200: clientExportSchema },
  }),
  admin({
    method: 'delete',
    path: '/api/v1/channels/:id/clients/:client_id',
    summary: 'Erase a customer (202: erased, the text still in SQLite’s write-ahead log while another process reads the database)',
    responses: { 204: null, 202: erasurePendingSchema },
  }),
  admin({
    method: 'get',
    path: '/api/v1/erasures',
    summary: 'The record of erasures, each pending until the database’s files no longer hold the erased text',
    responses: { 200: erasureListSchema },
  }),
  // ---- calls ----
  agent({
    method: 'get',
    path: '/api/v1/calls',
    summary: "The caller's calls",
    query: callListQuerySchema,
    responses: { 200: z.object({ calls: z.array(callViewSchema) }) },
  }),
  { method: 'get', path: '/api/v1/calls/:id', tag: 'Agent API', summary: 'A call', auth: 'agent_or_admin', responses: { 200: call } },
  {
    method: 'post',
    path: '/api/v1/calls',
    tag: 'Agent API',
    summary: 'Report a call (call providers)',
    auth: 'agent_or_admin',
    body: createCallSchema,
    responses: { 201: call },
  },
  {
    method: 'post',
    path: '/api/v1/calls/:id/status',
    tag: 'Agent API',
    summary: "Change a call's status (call providers)",
    auth: 'agent_or_admin',
    body: callStatusUpdateSchema,
    responses: { 200: call },
  },
  // ---- agent API ----
  {
    method: 'post',
    path: '/api/v1/auth/login',
    tag: 'Agent API',
    summary: 'Log in: an agent token',
    auth: 'none',
    body: loginSchema,
    responses: { 200: z.object({ token: z.string(), agent: agentViewSchema }) },
  },
  agent({ method: 'post', path: '/api/v1/auth/logout', summary: 'Log out: the token stops working', responses: { 204: null } }),
  agent({
    method: 'get',
    path: '/api/v1/me',
    summary: 'The caller',
    responses: { 200: z.object({ agent: agentViewSchema, role: agentViewSchema.shape.role, channel_ids: z.array(z.number().int()) }) },
  }),
  agent({
    method: 'put',
    path: '/api/v1/me/presence',
    summary: 'Go online or offline',
    body: presenceSchema,
    responses: { 200: presenceSchema },
  }),
  agent({
    method: 'put',
    path: '/api/v1/me/photo',
    summary: "Upload the caller's photo",
    query: fileNameQuery,
    body: fileBody,
    responses: { 200: agentAnswer },
  }),
  agent({ method: 'delete', path: '/api/v1/me/photo', summary: "Remove the caller's photo", responses: { 200: agentAnswer } }),
  agent({
    method: 'get',
    path: '/api/v1/chats',
    summary: "The caller's chats, a page at a time",
    query: chatListQuerySchema,
    responses: { 200: chatListViewSchema },
  }),
  agent({ method: 'get', path: '/api/v1/chats/:id', summary: 'A chat', responses: { 200: chat } }),
  agent({
    method: 'get',
    path: '/api/v1/chats/:id/messages',
    summary: "A chat's messages, oldest first, a page at a time",
    query: messageListQuerySchema,
    responses: { 200: messageListViewSchema },
  }),
  agent({
    method: 'post',
    path: '/api/v1/chats/:id/messages',
    summary: 'Send a message to the customer',
    body: agentMessageSchema,
    responses: { 201: message },
  }),
  agent({
    method: 'post',
    path: '/api/v1/chats/:id/messages/:messageId/resend',
    summary: 'Send a failed message again',
    responses: { 200: message },
  }),
  agent({
    method: 'post',
    path: '/api/v1/chats/:id/typing',
    summary: 'Typing started or stopped',
    body: typingSchema,
    responses: { 204: null },
  }),
  agent({ method: 'post', path: '/api/v1/chats/:id/accept', summary: 'Take the chat', responses: { 200: chat } }),
  agent({ method: 'post', path: '/api/v1/chats/:id/close', summary: 'Finish the chat', body: closeChatSchema, responses: { 200: chat } }),
  agent({ method: 'delete', path: '/api/v1/chats/:id/blacklist', summary: 'Unblock the customer', responses: { 200: chat } }),
  agent({
    method: 'post',
    path: '/api/v1/chats/:id/notes',
    summary: 'A private note, shown to agents only',
    body: noteSchema,
    responses: { 201: message },
  }),
  agent({
    method: 'post',
    path: '/api/v1/chats/:id/transfer',
    summary: 'Hand the chat to an agent or department',
    body: transferSchema,
    responses: { 200: chat },
  }),
  agent({
    method: 'get',
    path: '/api/v1/chats/:id/transfer-targets',
    summary: 'Who a chat can be handed to',
    responses: { 200: transferTargetsViewSchema },
  }),
  agent({
    method: 'post',
    path: '/api/v1/chats/:id/read',
    summary: 'Mark messages read up to one',
    body: readSchema,
    responses: { 204: null },
  }),
  agent({
    method: 'get',
    path: '/api/v1/search',
    summary: "Words in messages and in customers' name, e-mail and phone, in the chats the caller may see",
    query: searchQuerySchema,
    responses: { 200: searchResultsViewSchema },
  }),
  agent({
    method: 'get',
    path: '/api/v1/chats/:id/history',
    summary: "The same customer's other chats",
    responses: { 200: z.object({ chats: z.array(chatViewSchema) }) },
  }),
  agent({
    method: 'put',
    path: '/api/v1/chats/:id/department',
    summary: 'Move the chat to a department',
    body: chatDepartmentSchema,
    responses: { 200: chat },
  }),
  agent({
    method: 'post',
    path: '/api/v1/chats/:id/crm-assign',
    summary: 'Bind the chat to the CRM card (chat_assigned)',
    responses: { 200: chat },
  }),
  agent({
    method: 'get',
    path: '/api/v1/canned-replies',
    summary: "The team's and the caller's saved replies",
    responses: { 200: z.object({ canned_replies: z.array(cannedReplyViewSchema) }) },
  }),
  agent({
    method: 'post',
    path: '/api/v1/canned-replies',
    summary: 'Save a reply',
    body: cannedReplyCreateSchema,
    responses: { 201: cannedReplyViewSchema },
  }),
  agent({
    method: 'patch',
    path: '/api/v1/canned-replies/:id',
    summary: 'Change a saved reply',
    body: cannedReplyPatchSchema,
    responses: { 200: cannedReplyViewSchema },
  }),
  agent({ method: 'delete', path: '/api/v1/canned-replies/:id', summary: 'Delete a saved reply', responses: { 204: null } }),
  agent({
    method: 'get',
    path: '/api/v1/offline-messages',
    summary: "Offline messages of the caller's channels",
    responses: { 200: z.object({ offline_messages: z.array(offlineMessageViewSchema) }) },
  }),
  agent({
    method: 'post',
    path: '/api/v1/uploads',
    summary: 'Upload a file to send',
    query: fileNameQuery,
    body: fileBody,
    responses: { 201: uploadViewSchema },
  }),
  // ---- the widget's own requests (any origin) ----
  widget({
    method: 'get',
    path: '/widget-api/:publicId/settings',
    summary: 'What the loader needs before the chat opens',
    responses: { 200: widgetSettingsSchema },
  }),
  widget({
    method: 'post',
    path: '/widget-api/:publicId/offline-messages',
    summary: "A visitor's offline message",
    body: offlineMessageSchema,
    responses: { 201: z.object({ result: z.literal('ok'), offline_message_id: z.string() }) },
  }),
  preflight('/widget-api/:publicId/offline-messages'),
  widget({
    method: 'post',
    path: '/widget-api/:publicId/uploads',
    summary: "A visitor's file",
    query: fileNameQuery,
    body: fileBody,
    responses: { 201: uploadViewSchema },
  }),
  preflight('/widget-api/:publicId/uploads'),
  // ---- operations ----
  {
    method: 'get',
    path: '/files/:folder/:name',
    tag: 'Operations',
    summary: 'An uploaded file, from its unguessable URL',
    auth: 'none',
    responses: { 200: fileBody },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    summary: 'Ready',
    auth: 'none',
    responses: { 200: z.object({ ok: z.literal(true) }) },
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics',
    auth: 'metrics',
    responses: { 200: { contentType: 'text/plain', schema: z.string() } },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Operations',
    summary: 'This document',
    auth: 'none',
    responses: { 200: openApiDocument },
  },
];
