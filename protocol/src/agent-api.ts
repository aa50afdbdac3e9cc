import { z } from 'zod';
import { fileMediaTypes, fileNameFromUrl, httpUrlSchema, mediaFieldsSchema, messageTypes } from './media.ts';
import { departmentRefSchema } from './departments.ts';
import { geoIpSchema } from './geoip.ts';
import { callbackSettingsSchema } from './calls.ts';
import { codePointLength } from './text.ts';
import { crmViewSchema, webhookEventNames } from './webhooks.ts';

/** Longest text an agent may send in one message, in code points. */
export const AGENT_TEXT_MAX = 4000;

const name = z.string().trim().min(1, 'must not be empty').max(200);
const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'must be an e-mail address' }));
const id = z.number().int().positive();

// ---- admin API: agents ----
/** An admin sees the admin panel and may use the admin API with its own token; an agent answers chats. */
export const agentRoles = ['admin', 'agent'] as const;
export type AgentRole = (typeof agentRoles)[number];

const password = z.string().min(8, 'must have at least 8 characters').max(200);
export const createAgentSchema = z.object({
  name,
  email,
  password,
  photo: httpUrlSchema.nullish(),
  role: z.enum(agentRoles).default('agent'),
  /** The channels whose chats the agent receives (the channels' agent_ids, from the agent's side). */
  channel_ids: z.array(id).max(1000).optional(),
});
export type CreateAgentRequest = z.input<typeof createAgentSchema>;

/** PATCH /api/v1/agents/:id. `active: false` ends the agent's sessions at once and refuses its logins. */
export const updateAgentSchema = z
  .object({
    name,
    email,
    password,
    photo: httpUrlSchema.nullable(),
    role: z.enum(agentRoles),
    active: z.boolean(),
    channel_ids: z.array(id).max(1000),
  })
  .partial()
  .strict();
export type UpdateAgentRequest = z.infer<typeof updateAgentSchema>;

export const loginSchema = z.object({ email, password: z.string().min(1).max(200) });
export type LoginRequest = z.infer<typeof loginSchema>;

export const presenceStatuses = ['online', 'offline'] as const;
export type PresenceStatus = (typeof presenceStatuses)[number];
export const presenceSchema = z.object({ status: z.enum(presenceStatuses) });

export const agentViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  photo: z.string().nullable(),
  status: z.enum(presenceStatuses),
  role: z.enum(agentRoles),
  active: z.boolean().describe('An inactive agent can no longer log in, and its tokens no longer work.'),
});
export type AgentView = z.infer<typeof agentViewSchema>;

// ---- admin API: channels ----
export const channelKinds = ['chat_api', 'widget'] as const;
export type ChannelKind = (typeof channelKinds)[number];

const agentIds = z.array(id).max(1000);
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+$/, 'must be a domain such as example.com or *.example.com');
/** A site that may show the widget's chat frame (its CSP `frame-ancestors`): a scheme, host and optional port,
 * as the browser writes it (lower case, punycode). Nothing but those characters reaches the header. */
const SITE_ORIGIN = /^https?:\/\/([a-z0-9-]+\.)*[a-z0-9-]+(:\d{1,5})?$/;
const siteOrigin = z
  .string()
  .trim()
  .max(300)
  .transform((value, ctx) => {
    const fail = () => {
      ctx.addIssue({ code: 'custom', message: 'must be an origin such as https://shop.example (scheme and host, no path)' });
      return z.NEVER;
    };
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return fail();
    }
    // `?`, `#` and `@` would be dropped or moved by the URL parser: refused rather than silently changed.
    return url.pathname === '/' && !/[?#@]/.test(value) && SITE_ORIGIN.test(url.origin) ? url.origin : fail();
  });
const allowedSites = z.array(siteOrigin).max(50);
// At most a year: longer is "never" (null), and the stored milliseconds stay well inside an integer.
const autoCloseMinutes = z.number().positive('must be a positive number of minutes').max(525_600).nullable();
const botAttachment = z.object({ provider_id: z.string().min(1).max(200), token: z.string().min(1).max(500) });

export const createChatApiChannelSchema = z.object({
  kind: z.literal('chat_api'),
  name,
  webhook_url: httpUrlSchema,
  chunked: z.boolean().default(false),
  agent_ids: agentIds.default([]),
});
export const createWidgetChannelSchema = z.object({
  kind: z.literal('widget'),
  name,
  agent_ids: agentIds.default([]),
  webhook_url: httpUrlSchema.nullish(),
  /** Which server webhooks go to webhook_url (spec 6.2); all of them by default. */
  webhook_events: z
    .array(z.enum(webhookEventNames))
    .max(webhookEventNames.length)
    .default([...webhookEventNames]),
  safe_domains: z.array(domain).max(200).default([]),
  /** The sites that may show the chat; empty: any site. */
  allowed_sites: allowedSites.default([]),
  /** Callback calls (issue 7): off unless set. */
  callback: callbackSettingsSchema.optional(),
});
export const createChannelSchema = z.discriminatedUnion('kind', [createChatApiChannelSchema, createWidgetChannelSchema]);
export type CreateChannelRequest = z.infer<typeof createChannelSchema>;

/** PATCH body: any creation field but the kind, and `bot` to attach (`{provider_id, token}`) or detach (`null`). */
export const updateChannelSchema = z
  .object({
    name,
    webhook_url: httpUrlSchema.nullable(),
    webhook_events: z.array(z.enum(webhookEventNames)).max(webhookEventNames.length),
    chunked: z.boolean(),
    agent_ids: agentIds,
    safe_domains: z.array(domain).max(200),
    allowed_sites: allowedSites,
    bot: botAttachment.nullable(),
    callback: callbackSettingsSchema,
    /** Issue 24: an open or bot chat with no message for this long is closed by the service; null: never. */
    auto_close_minutes: autoCloseMinutes,
    /** Issue 24: widget channels; agents see the visitor's draft as they type, and the widget says so. */
    typing_preview: z.boolean(),
    /** Closed chats older than this many days are erased; null keeps them forever. */
    retention_days: z.number().positive().max(36_500).nullable(),
  })
  .partial()
  .strict();
export type UpdateChannelRequest = z.infer<typeof updateChannelSchema>;

/** Chat transcripts by e-mail (admin API): where a finished chat's log goes. */
export const transcriptSettingsSchema = z
  .object({
    /** Every finished chat's log also goes here; null for none. */
    archive_email: email.nullable(),
    /** Send the log to the customer when they gave an e-mail address. */
    to_customer: z.boolean(),
  })
  .partial()
  .strict();
export type TranscriptSettings = z.infer<typeof transcriptSettingsSchema>;
export const transcriptSettingsViewSchema = z.object({
  archive_email: z.string().nullable(),
  to_customer: z.boolean(),
  smtp_configured: z.boolean().describe('Whether the server can send e-mail at all (SVC_SMTP_URL).'),
});
export type TranscriptSettingsView = z.infer<typeof transcriptSettingsViewSchema>;

/** A widget channel's identity settings (verified visitors, admin API). */
export const channelIdentityViewSchema = z.object({
  identity_secret: z.string().describe("Signs user tokens on the site's server: hex HMAC-SHA256 of the token. Admins only."),
  require_verified_users: z.boolean().describe('Refuse user tokens that are not signed with it.'),
});
export type ChannelIdentityView = z.infer<typeof channelIdentityViewSchema>;
export const updateChannelIdentitySchema = z.object({ require_verified_users: z.boolean() }).strict();
export type UpdateChannelIdentity = z.infer<typeof updateChannelIdentitySchema>;

export const channelViewSchema = z.object({
  id: z.number().int(),
  public_id: z.string(),
  kind: z.enum(channelKinds),
  name: z.string(),
  agent_ids: z.array(z.number().int()),
  webhook_url: z.string().nullable(),
  random_string: z.string().describe('The secret path segment of a Chat API endpoint; admins only.'),
  status: z.union([z.literal(0), z.literal(1)]),
  bot: z.object({ provider_id: z.string(), token: z.string() }).nullable(),
  signing_secret: z.string().describe("Standard Webhooks secret that signs the channel's outbound requests; admins only."),
  created_at: z.string(),
  auto_close_minutes: z
    .number()
    .nullable()
    .describe('Minutes without a message after which the service closes an open or bot chat; null: never.'),
  retention_days: z.number().nullable().describe('Closed chats older than this many days are erased; null keeps them forever.'),
  chunked: z.boolean().optional().describe('chat_api channels.'),
  endpoint: z.string().optional().describe('chat_api channels: `{webhook_url}/<random_string>/<CHANNEL_PUBLIC_ID>`.'),
  status_url: z.string().optional().describe('chat_api channels.'),
  embed: z.string().optional().describe('widget channels: the HTML snippet a site owner pastes.'),
  safe_domains: z.array(z.string()).optional(),
  allowed_sites: z
    .array(z.string())
    .optional()
    .describe('The origins whose pages may show the chat frame (`frame-ancestors`); empty: any.'),
  webhook_events: z.array(z.enum(webhookEventNames)).optional(),
  callback: callbackSettingsSchema.optional(),
  typing_preview: z.boolean().optional().describe("Agents see the visitor's draft as they type (off by default)."),
});
export type ChannelView = z.infer<typeof channelViewSchema>;

// ---- admin API: bot providers ----
export const createBotProviderSchema = z.object({
  name,
  endpoint: httpUrlSchema,
  auth: z.object({ token_url: httpUrlSchema, client_id: z.string().min(1).max(500), client_secret: z.string().min(1).max(500) }).nullish(),
});
export type CreateBotProviderRequest = z.infer<typeof createBotProviderSchema>;

export const botProviderViewSchema = z.object({
  provider_id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  bot_url: z.string(),
  auth: z.object({ token_url: z.string(), client_id: z.string() }).nullable(),
});
export type BotProviderView = z.infer<typeof botProviderViewSchema>;

// ---- agent API: chats and messages ----
export const chatStates = ['open', 'bot', 'closed'] as const;
export type ChatState = (typeof chatStates)[number];
/** A page size of the agent API's paged lists; a query string's number. */
const pageLimit = z.coerce.number().int().min(1).max(200);
export const chatListQuerySchema = z.object({
  state: z.enum(chatStates).default('open'),
  limit: pageLimit.optional(),
  /** The `next` of the previous page, as the server wrote it. */
  cursor: z.string().min(1).max(200).optional(),
});
export const messageListQuerySchema = z.object({
  limit: pageLimit.optional(),
  /** A message id: the page holds the messages older than it. */
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});

export const clientViewSchema = z.object({
  id: z.string().describe("The customer's id as its channel knows it, as a string."),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  photo: z.string().nullable(),
  url: z.string().nullable(),
  invite: z.string().nullable(),
  display_name: z.string().describe('Name, phone or email, else "Anonymous" (spec 2.1).'),
  visitor_number: z.number().int().nullable().describe('Widget visitors: sequential number (spec 4.4 getVisitorNumber).'),
  description: z.string().nullable(),
  custom_data: z
    .array(
      z.object({ title: z.string().optional(), content: z.string().optional(), link: z.string().optional(), key: z.string().optional() }),
    )
    .describe("From setCustomData; links outside the channel's safe domains are already removed."),
  user_token: z.string().nullable().describe('From setUserToken.'),
  user_verified: z.boolean().describe("The user token came signed by the site's server with the channel's identity secret."),
  page_title: z.string().nullable(),
  referrer: z.string().nullable(),
  utm: z.record(z.string(), z.string()).nullable(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  geoip: geoIpSchema.describe("Where the visitor's address is (spec 2.3 geoip); `{}` when unknown."),
  blacklisted: z.boolean().describe('Blocked when a chat was closed with `blacklist`: new messages from this client are refused.'),
});
export type ClientView = z.infer<typeof clientViewSchema>;

export const messageAuthors = ['client', 'agent', 'bot', 'system'] as const;
export type MessageAuthor = (typeof messageAuthors)[number];
export const deliveryStates = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export const messageViewSchema = mediaFieldsSchema.extend({
  id: z.number().int(),
  chat_id: z.number().int(),
  author: z.enum(messageAuthors),
  agent_id: z.number().int().optional(),
  agent_name: z.string().optional().describe('The name of the agent who wrote an agent message.'),
  type: z.enum(messageTypes),
  text: z.string().optional(),
  created_at: z.string(),
  delivery: z.enum(deliveryStates),
  error: z.string().optional(),
  internal: z
    .literal(true)
    .optional()
    .describe("A private note (or a transfer's record): shown to the channel's agents only, never to the client's side."),
});
export type MessageView = z.infer<typeof messageViewSchema>;

export const chatViewSchema = z.object({
  id: z.number().int(),
  channel_id: z.number().int(),
  channel_kind: z.enum(channelKinds),
  channel_name: z.string(),
  state: z.enum(chatStates),
  client: clientViewSchema,
  assigned_agent_id: z.number().int().nullable(),
  created_at: z.string(),
  closed_at: z.string().nullable(),
  crm: crmViewSchema.nullable().describe("What the site owner's server answered to chat_accepted, when it answered ok."),
  rate: z.enum(['positive', 'negative']).nullable().describe("The visitor's rating from the widget."),
  department: departmentRefSchema.nullable().describe('The department the chat belongs to (spec 2.3), if any.'),
  last_message: messageViewSchema.nullable(),
  unread: z
    .number()
    .int()
    .optional()
    .describe("`GET /api/v1/chats` only: the customer's messages after the caller's last read (`POST /chats/:id/read`)."),
});
export type ChatView = z.infer<typeof chatViewSchema>;

/** `GET /api/v1/chats`: `next` is the cursor of the following page, null after the last. */
export const chatListViewSchema = z.object({
  chats: z.array(chatViewSchema),
  next: z.string().nullable(),
  total: z.number().int().describe("How many of the agent's chats are in the state asked for."),
});
export type ChatListView = z.infer<typeof chatListViewSchema>;
/** `GET /api/v1/chats/:id/messages`: oldest first; `next` is the `before` of the older page, null when none. */
export const messageListViewSchema = z.object({ messages: z.array(messageViewSchema), next: z.number().int().nullable() });
export type MessageListView = z.infer<typeof messageListViewSchema>;

const agentText = z
  .string()
  .refine((t) => t.trim().length > 0, 'must not be empty')
  .refine((t) => codePointLength(t) <= AGENT_TEXT_MAX, `must be at most ${AGENT_TEXT_MAX} characters`);

const caption = z
  .string()
  .refine((t) => codePointLength(t) <= AGENT_TEXT_MAX, `must be at most ${AGENT_TEXT_MAX} characters`)
  .optional();

// Unknown fields are dropped, so the answer of an upload can be sent as it is.
// Bot-only fields (markdown content, buttons) are not an agent's to send.
const agentMediaFields = mediaFieldsSchema.omit({ content: true, buttons: true, button_id: true });
const fileMediaMessage = agentMediaFields.extend({ type: z.enum(fileMediaTypes), file: httpUrlSchema, text: caption });
const locationMessage = agentMediaFields
  .extend({
    type: z.literal('location'),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    text: caption,
  })
  .strict();

/** What an agent may send: a text or a multimedia message of spec 2.1. */
// spec 2.1 names file_name among a media message's required fields: when the agent leaves it out, the
// name is taken from the URL.
export const agentMessageSchema = z
  .discriminatedUnion('type', [z.object({ type: z.literal('text'), text: agentText }).strict(), fileMediaMessage, locationMessage])
  .transform((m) => ('file' in m && m.file && !m.file_name ? { ...m, file_name: fileNameFromUrl(m.file) ?? 'file' } : m));
export type AgentMessageRequest = z.infer<typeof agentMessageSchema>;

export const typingSchema = z.object({ state: z.enum(['start', 'stop']) });
export type TypingState = z.infer<typeof typingSchema>['state'];
export const closeChatSchema = z.object({ blacklist: z.boolean().default(false) });

/** The answer of an upload (`POST /api/v1/uploads`, `/widget-api/<id>/uploads`): the media fields to send in
 * a message of the matching type (spec 2.1). */
export const uploadViewSchema = z.object({
  type: z.enum(fileMediaTypes),
  file: z.string(),
  file_name: z.string(),
  file_size: z.number().int(),
  content_type: z.string(),
});
export type UploadView = z.infer<typeof uploadViewSchema>;
