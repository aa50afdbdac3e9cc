import { z } from 'zod';
import { departmentRefSchema } from './departments.ts';
import { geoIpSchema } from './geoip.ts';
import { callStatuses, callTypes } from './calls.ts';
import { isHttpUrl } from './url.ts';

/** Server webhooks of a widget channel (spec 4.3, 6.2): POSTed to the site owner's URL. */
export const webhookEventNames = [
  'chat_accepted',
  'chat_assigned',
  'chat_finished',
  'chat_updated',
  'offline_message',
  'call_event',
] as const;
export type WebhookEventName = (typeof webhookEventNames)[number];

/** spec 2.3 visitor. */
export const webhookVisitorSchema = z.object({
  name: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  number: z.string(),
  description: z.string(),
  chats_count: z.number().int(),
});
export type WebhookVisitor = z.infer<typeof webhookVisitorSchema>;

/** spec 2.3 agent. */
export const webhookAgentSchema = z.object({ id: z.number().int(), name: z.string(), email: z.string(), phone: z.string().optional() });
export type WebhookAgent = z.infer<typeof webhookAgentSchema>;

/** spec 2.3 session. */
export const webhookSessionSchema = z.object({
  geoip: geoIpSchema,
  utm: z.string().describe('Deprecated by the spec in favour of utm_json: `key=value` pairs joined by `|`.'),
  utm_json: z.object({
    source: z.string().optional(),
    medium: z.string().optional(),
    campaign: z.string().optional(),
    content: z.string().optional(),
    term: z.string().optional(),
  }),
  ip_addr: z.string(),
  user_agent: z.string(),
});
export type WebhookSession = z.infer<typeof webhookSessionSchema>;

/** spec 2.3 chat log message; `message` is the text (or the file URL of a media message). */
export const webhookLogMessageSchema = z.object({
  timestamp: z.number().int(),
  type: z.enum(['visitor', 'agent', 'bot']),
  agent_id: z.number().int().optional(),
  message: z.string(),
});
export type WebhookLogMessage = z.infer<typeof webhookLogMessageSchema>;

/** spec 2.3 call: `reason` only on error, `record_url` only once ended and known. */
export const webhookCallSchema = z.object({
  type: z.enum(callTypes),
  phone: z.string(),
  status: z.enum(callStatuses),
  reason: z.string().optional(),
  record_url: z.string().optional(),
});
export type WebhookCall = z.infer<typeof webhookCallSchema>;

/** Fields every event carries (spec 6.2), plus the setUserToken id as `user_token` when one was set. */
const webhookCommonShape = {
  event_id: z.string().describe('Unique per event, the same on every retry (also in the `webhook-id` header).'),
  widget_id: z.string(),
  visitor: webhookVisitorSchema,
  session: webhookSessionSchema,
  page: z.object({ url: z.string(), title: z.string().optional() }),
  user_token: z.string().optional(),
  user_token_verified: z.boolean().optional().describe("With user_token: whether it came signed by the site's server (verified visitors)."),
  department: departmentRefSchema.optional().describe("The chat's department (spec 6.2), when it has one; never on offline_message."),
};
export const webhookCommonSchema = z.object({ event_name: z.enum(webhookEventNames), ...webhookCommonShape });
export type WebhookCommon = z.infer<typeof webhookCommonSchema>;

const chatLogSchema = z.object({
  messages: z.array(webhookLogMessageSchema),
  rate: z.enum(['positive', 'negative']).nullable(),
  blacklisted: z.boolean(),
});
/** One server webhook's body, by `event_name` (spec 6.2). */
export const webhookPayloadSchemas = {
  chat_accepted: z.object({
    ...webhookCommonShape,
    event_name: z.literal('chat_accepted'),
    chat_id: z.number().int(),
    agent: webhookAgentSchema,
  }),
  chat_assigned: z.object({
    ...webhookCommonShape,
    event_name: z.literal('chat_assigned'),
    chat_id: z.number().int(),
    agent: webhookAgentSchema,
    assign_to: z.string(),
  }),
  chat_finished: z.object({
    ...webhookCommonShape,
    event_name: z.literal('chat_finished'),
    chat_id: z.number().int(),
    agents: z.array(webhookAgentSchema),
    chat: chatLogSchema,
  }),
  chat_updated: z.object({
    ...webhookCommonShape,
    event_name: z.literal('chat_updated'),
    chat_id: z.number().int(),
    agent: webhookAgentSchema.nullable(),
  }),
  offline_message: z.object({
    ...webhookCommonShape,
    event_name: z.literal('offline_message'),
    offline_message_id: z.string(),
    message: z.string(),
    department: z.never().optional(),
  }),
  call_event: z.object({
    ...webhookCommonShape,
    event_name: z.literal('call_event'),
    chat_id: z.number().int().optional(),
    agent: webhookAgentSchema.nullable(),
    call: webhookCallSchema,
  }),
} satisfies Record<WebhookEventName, z.ZodType>;
const p = webhookPayloadSchemas;
export const webhookPayloadSchema = z.discriminatedUnion('event_name', [
  p.chat_accepted,
  p.chat_assigned,
  p.chat_finished,
  p.chat_updated,
  p.offline_message,
  p.call_event,
]);
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

/** The answer the service reads from an event other than chat_accepted (spec 6.2): only `result` counts. */
export const webhookResultSchema = z.object({
  result: z.string().describe('`ok`; anything else (FAILURE, an error text) is taken as a refusal.'),
});

const text = (max: number) =>
  z
    .unknown()
    .transform((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined))
    .optional();
const httpLink = z
  .unknown()
  .transform((v) => (typeof v === 'string' && isHttpUrl(v.trim()) ? v.trim() : undefined))
  .optional();

/**
 * The owner's answer to chat_accepted (spec 6.2), read liberally: broken optional parts are dropped. Only a
 * `result` of ok lets the rest reach the agent.
 */
export const chatAcceptedAnswerSchema = z.object({
  result: z.string(),
  custom_data: z
    .array(z.object({ title: text(200), content: text(2000) }))
    .max(50)
    .optional()
    .catch(undefined),
  contact_info: z
    .object({ name: text(200), phone: text(100), email: text(320) })
    .optional()
    .catch(undefined),
  enable_assign: z.boolean().optional().catch(undefined),
  crm_link: httpLink,
  page: z
    .object({ url: httpLink, title: text(500) })
    .optional()
    .catch(undefined),
});

/** What the owner's server said about a chat (chat_accepted), as agents see it. */
export const crmViewSchema = z.object({
  custom_data: z.array(z.object({ title: z.string().optional(), content: z.string().optional() })),
  enable_assign: z.boolean().describe('Show a button that binds the visitor to the CRM card (sends chat_assigned).'),
  crm_link: z.string().nullable(),
  page: z.object({ url: z.string().optional(), title: z.string().optional() }).nullable(),
  assigned_to: z.string().nullable().describe('Set once the agent bound the chat: the CRM link sent as `assign_to`.'),
});
export type CrmView = z.infer<typeof crmViewSchema>;
