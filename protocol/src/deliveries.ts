import { z } from 'zod';
import { deliveryStates } from './agent-api.ts';

/** What an outbound request of the outbox carries: a Chat API delivery, a bot event, a server webhook or a
 * transcript e-mail. */
export const deliveryKinds = ['chat_api', 'bot', 'webhook', 'email'] as const;
export type DeliveryKind = (typeof deliveryKinds)[number];

const isoTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 time such as 2026-11-22T10:00:00Z' });

/** `POST /api/v1/channels/:id/deliveries/replay`: every failed delivery of a time range, of one kind or all. */
export const replayRangeSchema = z
  .object({ since: isoTime, until: isoTime, kind: z.enum(deliveryKinds).optional() })
  .strict()
  .refine((r) => Date.parse(r.since) < Date.parse(r.until), 'until must be later than since');
export type ReplayRange = z.infer<typeof replayRangeSchema>;

export const replayRangeViewSchema = z.object({
  replayed: z.array(z.object({ id: z.number().int(), replay_of: z.number().int().nullable(), event_id: z.string() })),
  more: z.boolean().describe('More were left for another request.'),
});
export type ReplayRangeView = z.infer<typeof replayRangeViewSchema>;

/** `GET /api/v1/channels/:id/deliveries` query: filters and paging (newest first, `before` an id). */
export const deliveryListQuerySchema = z.object({
  kind: z.enum(deliveryKinds).optional(),
  state: z.enum(deliveryStates).optional(),
  /** ISO 8601 times: deliveries created at or after `since`, before `until`. */
  since: isoTime.optional(),
  until: isoTime.optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type DeliveryListQuery = z.input<typeof deliveryListQuerySchema>;

/** One attempt of an outbound request: the receiver's HTTP status (`null` when none came) and the error. */
export const deliveryAttemptViewSchema = z.object({
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  answer: z.string().nullable().optional().describe("The start of the receiver's answer (the delivery log only)."),
  duration_ms: z.number().nullable().optional().describe('How long the attempt took (the delivery log only).'),
  at: z.string(),
});
export type DeliveryAttemptView = z.infer<typeof deliveryAttemptViewSchema>;

/** A row of a channel's delivery log (admin API). */
export const deliveryViewSchema = z.object({
  id: z.number().int(),
  kind: z.enum(deliveryKinds),
  event_id: z.string().describe('The `webhook-id` header, stable across attempts.'),
  chat_id: z.number().int().nullable(),
  message_id: z.number().int().nullable(),
  url: z.string(),
  payload: z.unknown(),
  state: z.enum(deliveryStates),
  last_error: z.string().nullable(),
  replay_of: z.number().int().nullable().describe('The failed delivery this one replays.'),
  replayed_by: z.number().int().nullable().describe('The replay of this one.'),
  attempts: z.array(deliveryAttemptViewSchema),
  created_at: z.string(),
});
export type DeliveryView = z.infer<typeof deliveryViewSchema>;

export const deliveryListViewSchema = z.object({
  deliveries: z.array(deliveryViewSchema),
  next_before: z.number().int().nullable().describe('Pass as `before` for the next, older page; `null` on the last page.'),
});
export type DeliveryListView = z.infer<typeof deliveryListViewSchema>;

/** `GET /api/v1/chats/:id/bot-events`: what the service sent to the chat's bot provider, and what it got. */
export const botEventsViewSchema = z.object({
  sent: z.array(
    z.object({
      event_id: z.string(),
      event: z.string().optional(),
      payload: z.unknown(),
      state: z.enum(deliveryStates),
      attempts: z.array(deliveryAttemptViewSchema),
      created_at: z.string(),
    }),
  ),
  received: z.array(
    z.object({ event: z.string(), body: z.unknown(), status: z.number().int(), error: z.string().nullable(), at: z.string() }),
  ),
});
export type BotEventsView = z.infer<typeof botEventsViewSchema>;
