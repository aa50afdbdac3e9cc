import type { DeliveryState, MessageView } from '@svc/protocol';

/** Adds the message, or replaces the copy with its id, keeping the list in id (that is, time) order. */
export function upsertMessage(list: readonly MessageView[], incoming: MessageView): readonly MessageView[] {
  // The usual case, a new message after the newest: no search, no sort, whatever the chat's length.
  if (list.length === 0 || incoming.id > list[list.length - 1]!.id) return [...list, incoming];
  const index = list.findIndex((m) => m.id === incoming.id);
  if (index === -1) return [...list, incoming].sort((a, b) => a.id - b.id);
  return list.map((m, i) => (i === index ? incoming : m));
}

/** Both lists as one in id order; a message in both is taken from `winners`. One sort, so merging the pages
 * of a 30,000-message chat stays quick. */
export function mergeMessages(list: readonly MessageView[], winners: readonly MessageView[]): readonly MessageView[] {
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of winners) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
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
