import { z } from 'zod';
import { deliveryStates, type DeliveryState } from './agent-api.ts';

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

export interface ReplayRangeView {
  replayed: { id: number; replay_of: number | null; event_id: string }[];
  /** More were left for another request. */
  more: boolean;
}

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
export interface DeliveryAttemptView {
  status: number | null;
  error: string | null;
  /** The start of the receiver's answer (the delivery log only). */
  answer?: string | null;
  /** How long the attempt took (the delivery log only). */
  duration_ms?: number | null;
  at: string;
}

/** A row of a channel's delivery log (admin API). */
export interface DeliveryView {
  id: number;
  kind: DeliveryKind;
  /** The `webhook-id` header, stable across attempts. */
  event_id: string;
  chat_id: number | null;
  message_id: number | null;
  url: string;
  payload: unknown;
  state: DeliveryState;
  last_error: string | null;
  /** The failed delivery this one replays, and the replay of this one. */
  replay_of: number | null;
  replayed_by: number | null;
  attempts: DeliveryAttemptView[];
  created_at: string;
}

export interface DeliveryListView {
  deliveries: DeliveryView[];
  /** Pass as `before` for the next, older page; `null` on the last page. */
  next_before: number | null;
}

/** `GET /api/v1/chats/:id/bot-events`: what the service sent to the chat's bot provider, and what it got. */
export interface BotEventsView {
  sent: {
    event_id: string;
    event: string | undefined;
    payload: unknown;
    state: DeliveryState;
    attempts: DeliveryAttemptView[];
    created_at: string;
  }[];
  received: { event: string; body: unknown; status: number; error: string | null; at: string }[];
}
