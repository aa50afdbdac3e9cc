import type { DeliveryState, MessageView } from '@svc/protocol';

/** Adds the message, or replaces the copy with its id, keeping the list in id (that is, time) order. */
export function upsertMessage(list: readonly MessageView[], incoming: MessageView): readonly MessageView[] {
  const index = list.findIndex((m) => m.id === incoming.id);
  if (index === -1) return [...list, incoming].sort((a, b) => a.id - b.id);
  return list.map((m, i) => (i === index ? incoming : m));
}

export interface DeliveryUpdate {
  chat_id: number;
  message_id: number;
  delivery: DeliveryState;
  error?: string;
}

/** The list with one message's delivery state changed; the same list when the message is not in it. */
export function applyDelivery(list: readonly MessageView[], update: DeliveryUpdate): readonly MessageView[] {
  if (!list.some((m) => m.id === update.message_id)) return list;
  return list.map((m) => {
    if (m.id !== update.message_id) return m;
    const { error: _previous, ...rest } = m;
    return update.error !== undefined
      ? { ...rest, delivery: update.delivery, error: update.error }
      : { ...rest, delivery: update.delivery };
  });
}
