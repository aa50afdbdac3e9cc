import { z } from 'zod';

/** spec 8: at most 3 buttons per BUTTONS message. */
export const MAX_BOT_BUTTONS = 3;

/** Ids arrive as strings or numbers (real providers echo ours as numbers); we keep strings. */
const idSchema = z.union([z.string().min(1).max(200), z.number().int().nonnegative()]).transform(String);
/** spec 2.2: unix seconds, "declared as a string", sent as an integer; missing means now. */
const timestampSchema = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, 'must be unix seconds').transform(Number)])
  .optional();
const text = z.string().max(4000);

export const botTextMessageSchema = z.object({ type: z.literal('TEXT'), text: text.min(1), timestamp: timestampSchema });
export const botMarkdownMessageSchema = z.object({
  type: z.literal('MARKDOWN'),
  content: z.string().min(1).max(8000),
  text: text.optional(),
  timestamp: timestampSchema,
});
export const botButtonsMessageSchema = z.object({
  type: z.literal('BUTTONS'),
  title: z.string().min(1).max(1000),
  text: text.optional(),
  buttons: z
    .array(z.object({ text: z.string().min(1).max(200), id: idSchema.optional() }))
    .min(1)
    .max(MAX_BOT_BUTTONS, `a BUTTONS message has at most ${MAX_BOT_BUTTONS} buttons`),
  timestamp: timestampSchema,
});
export const botMessageSchema = z.discriminatedUnion('type', [botTextMessageSchema, botMarkdownMessageSchema, botButtonsMessageSchema], {
  error: 'message.type must be TEXT, MARKDOWN or BUTTONS',
});
export type BotMessage = z.infer<typeof botMessageSchema>;

/** Provider to service (spec 6.1). */
export const botMessageEventSchema = z.object({
  event: z.literal('BOT_MESSAGE'),
  id: idSchema.optional(),
  chat_id: idSchema,
  message: botMessageSchema,
});
export const inviteAgentEventSchema = z.object({
  event: z.literal('INVITE_AGENT'),
  id: idSchema.optional(),
  client_id: idSchema.optional(),
  chat_id: idSchema,
});
export const providerEventSchema = z.discriminatedUnion('event', [botMessageEventSchema, inviteAgentEventSchema]);
export type ProviderEvent = z.infer<typeof providerEventSchema>;
export const providerEventNames = ['BOT_MESSAGE', 'INVITE_AGENT'] as const;

/** The customer as a provider sees them in an event (`sender` of every event but AGENT_JOINED). */
export const botEventClientSchema = z.object({
  id: z.string().describe("The same as the event's `client_id`."),
  name: z.string().nullable(),
  url: z.string().nullable().describe("The page the customer is on (widget) or the Chat API's `sender.url`."),
  has_contacts: z.boolean().describe('The customer left an e-mail address or a phone number.'),
});
export type BotEventClient = z.infer<typeof botEventClientSchema>;

/**
 * What every service-to-provider event carries beyond the spec, for providers written for the original
 * service: `site_id` (the channel's public id: our channel is the original's site), whether an agent of the
 * channel is online, who the event is about, and the channel.
 */
const serviceEventContextShape = {
  site_id: z.string(),
  agents_online: z.boolean(),
  channel: z.object({ id: z.string(), type: z.enum(['widget', 'chat_api']) }),
};
export type ServiceEventContext = z.infer<z.ZodObject<typeof serviceEventContextShape>>;

const serviceEventIds = { id: z.string().describe('Stable across retries.'), client_id: z.string(), chat_id: z.string() };
/** Service to provider (spec 6.1), by `event`. Ids are JSON strings. */
export const serviceEventSchemas = {
  CLIENT_MESSAGE: z.object({
    event: z.literal('CLIENT_MESSAGE'),
    ...serviceEventIds,
    sender: botEventClientSchema,
    message: z.object({ type: z.literal('TEXT'), text: z.string(), timestamp: z.number().int(), button_id: z.string().optional() }),
    ...serviceEventContextShape,
  }),
  AGENT_JOINED: z.object({
    event: z.literal('AGENT_JOINED'),
    ...serviceEventIds,
    sender: z.object({ id: z.string(), name: z.string() }),
    ...serviceEventContextShape,
  }),
  AGENT_UNAVAILABLE: z.object({
    event: z.literal('AGENT_UNAVAILABLE'),
    ...serviceEventIds,
    sender: botEventClientSchema,
    ...serviceEventContextShape,
  }),
  CHAT_CLOSED: z.object({ event: z.literal('CHAT_CLOSED'), ...serviceEventIds, sender: botEventClientSchema, ...serviceEventContextShape }),
};
const e = serviceEventSchemas;
export const serviceEventSchema = z.discriminatedUnion('event', [e.CLIENT_MESSAGE, e.AGENT_JOINED, e.AGENT_UNAVAILABLE, e.CHAT_CLOSED]);
export type ServiceEvent = z.infer<typeof serviceEventSchema>;

/** The service's answer to a provider's event. */
export const botEventAnswerSchema = z.object({ result: z.literal('ok') });
export type BotEventAnswer = z.infer<typeof botEventAnswerSchema>;

/** The OAuth 2.0 client-credentials answer of a provider's token URL (spec 5.3, contract). */
export const accessTokenSchema = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive().optional() });
