import { z } from 'zod';
import { deliveryStates, type DeliveryState } from './agent-api.ts';

/** What an outbound request of the outbox carries: a Chat API delivery, a bot event or a server webhook. */
export const deliveryKinds = ['chat_api', 'bot', 'webhook'] as const;
export type DeliveryKind = (typeof deliveryKinds)[number];

/** `GET /api/v1/channels/:id/deliveries` query: filters and paging (newest first, `before` an id). */
export const deliveryListQuerySchema = z.object({
  kind: z.enum(deliveryKinds).optional(),
  state: z.enum(deliveryStates).optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type DeliveryListQuery = z.input<typeof deliveryListQuerySchema>;

/** One attempt of an outbound request: the receiver's HTTP status (`null` when none came) and the error. */
export interface DeliveryAttemptView {
  status: number | null;
  error: string | null;
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
