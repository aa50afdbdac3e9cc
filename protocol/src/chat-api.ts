import { z } from 'zod';
import { fileMediaTypes, isHttpUrl, mediaFieldsSchema } from './media.ts';
import { truncateCodePoints } from './text.ts';

/** spec 8: inbound text longer than this is cut, never refused. */
export const CHAT_API_TEXT_MAX = 1000;

/** An optional display field: a broken value is ignored rather than refused (real integrations send
 * blanks and nulls), the message still goes through. */
const optionalText = (max: number) =>
  z
    .unknown()
    .transform((v) => (typeof v === 'string' && v.trim() !== '' ? truncateCodePoints(v.trim(), max) : undefined))
    .optional();
const optionalHttpUrl = z
  .unknown()
  .transform((v) => (typeof v === 'string' && isHttpUrl(v.trim()) && v.length <= 2048 ? v.trim() : undefined))
  .optional();

/** sender.id: a string or an integer; empty or absent means the message is not transmitted (spec 2.1, 7.5). */
export const senderIdSchema = z.union(
  [
    // Kept exactly as sent (recipient.id returns it unchanged); only a blank id is refused.
    z
      .string()
      .max(256)
      .refine((id) => id.trim().length > 0, 'sender.id must not be empty'),
    z.number().int('sender.id must be a string or an integer').min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
  ],
  { error: 'sender.id is required (a string or an integer); without it the message is not transmitted' },
);
export type SenderId = z.infer<typeof senderIdSchema>;

/** 42 and "42" are the same customer. */
export function clientKey(id: SenderId): string {
  return String(id).trim();
}

export const inboundSenderSchema = z.object(
  {
    id: senderIdSchema,
    name: optionalText(200),
    phone: optionalText(100),
    email: optionalText(320),
    photo: optionalHttpUrl,
    url: optionalHttpUrl,
    invite: optionalText(1000),
  },
  { error: 'sender is required: an object with at least sender.id' },
);
export type InboundSender = z.infer<typeof inboundSenderSchema>;

/** An optional count (bytes, seconds, pixels): a positive integer, or a string of digits as sloppy bridges
 * send; anything else is ignored rather than refused, and never stored. */
const optionalCount = z
  .unknown()
  .transform((v) => {
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
  })
  .optional();
const messageId = z
  .unknown()
  .transform((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).slice(0, 256) : undefined))
  .optional();

const textMessage = z.object({
  type: z.literal('text'),
  id: messageId,
  text: z
    .string({ error: 'message.text is required for a text message' })
    .refine((t) => t.trim().length > 0, 'message.text must not be empty')
    .transform((t) => truncateCodePoints(t, CHAT_API_TEXT_MAX)),
});

const typingMessage = z.object({ type: z.enum(['typein', 'typeout']), id: messageId });

const fileMessage = z.object({
  type: z.enum(fileMediaTypes),
  id: messageId,
  file: z
    .string({ error: 'message.file is required: an http:// or https:// URL' })
    .trim()
    .max(2048)
    .refine(isHttpUrl, 'message.file must be an http:// or https:// URL'),
  thumb: optionalHttpUrl,
  emoji: optionalText(64),
  file_name: optionalText(512),
  file_size: optionalCount,
  duration: optionalCount,
  width: optionalCount,
  height: optionalCount,
  text: optionalText(CHAT_API_TEXT_MAX),
  performer: optionalText(512),
  title: optionalText(512),
});

const locationMessage = z.object({
  type: z.literal('location'),
  id: messageId,
  latitude: z.number({ error: 'message.latitude must be a number from -90 to 90' }).min(-90).max(90),
  longitude: z.number({ error: 'message.longitude must be a number from -180 to 180' }).min(-180).max(180),
  text: optionalText(CHAT_API_TEXT_MAX),
  emoji: optionalText(64),
});

export const inboundMessageSchema = z.discriminatedUnion('type', [textMessage, typingMessage, fileMessage, locationMessage], {
  error: 'message.type must be one of text, typein, typeout, video, audio, voice, photo, sticker, document, location',
});

/** Customer to service (spec 2.1, 4.1). */
export const chatApiInboundSchema = z.object({
  sender: inboundSenderSchema,
  message: inboundMessageSchema,
});
export type ChatApiInbound = z.infer<typeof chatApiInboundSchema>;
export type InboundMessage = z.infer<typeof inboundMessageSchema>;

/** Service to customer (spec 2.1, 4.1): an agent or bot message, or a typing change. */
export const chatApiOutboundSchema = z.object({
  sender: z.object({ name: z.string(), photo: z.string().optional() }),
  recipient: z.object({ id: z.union([z.string(), z.number().int()]).describe('`sender.id` exactly as the integrator sent it.') }),
  message: z.union([
    z.object({ type: z.enum(['typein', 'typeout']) }),
    mediaFieldsSchema.extend({ type: z.string(), id: z.string(), text: z.string().optional() }),
  ]),
});
export type ChatApiOutbound = z.infer<typeof chatApiOutboundSchema>;

/** The service's answer to a customer's message (a typing change answers `{result: "ok"}` only). */
export const chatApiIntakeAnswerSchema = z.object({
  result: z.literal('ok'),
  chat_id: z.number().int().optional(),
  message_id: z.number().int().optional(),
});
export type ChatApiIntakeAnswer = z.infer<typeof chatApiIntakeAnswerSchema>;

/** `GET .../status`: `1` while an agent of the channel is online, else `0` (spec 4.1), as text. */
export const chatApiStatusSchema = z.enum(['0', '1']);

/** The integrator's answer; only `{result:'ok'}` with 200 counts as delivered. */
export const chatApiReplySchema = z.union([
  z.object({ result: z.literal('ok') }),
  z.object({ error: z.object({ code: z.union([z.number(), z.string()]).optional(), message: z.string().optional() }) }),
]);
