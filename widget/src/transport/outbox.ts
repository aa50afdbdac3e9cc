import type { VisitorAttachment, VisitorMessageView } from '@svc/protocol';

/**
 * A message the visitor typed that the server has not confirmed yet. Its client_msg_id is chosen once, when
 * it is typed, and reused on every attempt: the server stores a repeated id once and answers with the same
 * message, which makes resending after a dropped connection safe (exactly once).
 */
export interface OutboxItem {
  client_msg_id: string;
  text: string;
  /** Set when the visitor clicked a bot button (spec 2.2 button_id). */
  button_id?: string;
  /** A file already uploaded to the service, sent with the text as its caption. */
  attachment?: VisitorAttachment;
  created_at: string;
  /** queued: waits for the connection; sending: on the wire; failed: refused by the server (can be retried). */
  state: 'queued' | 'sending' | 'failed';
  /** Counts the attempts, so the answer to an older attempt is recognised. */
  attempt: number;
  error?: string;
}

export type Outbox = OutboxItem[];

const update = (outbox: Outbox, id: string, patch: Partial<OutboxItem>) =>
  outbox.map((item) => (item.client_msg_id === id ? { ...item, ...patch } : item));

export const enqueue = (
  outbox: Outbox,
  item: Pick<OutboxItem, 'client_msg_id' | 'text' | 'created_at' | 'button_id' | 'attachment'>,
): Outbox => [...outbox, { ...item, state: 'queued', attempt: 0 }];

/** The next message to put on the wire: the oldest queued one, and only when none is on the wire (order). */
export function nextToSend(outbox: Outbox): OutboxItem | undefined {
  if (outbox.some((item) => item.state === 'sending')) return undefined;
  return outbox.find((item) => item.state === 'queued');
}

export const markSending = (outbox: Outbox, id: string): Outbox =>
  outbox.map((item) => (item.client_msg_id === id ? { ...item, state: 'sending', attempt: item.attempt + 1 } : item));

/** The server has the message: it leaves the outbox (the message list shows the stored one). */
export const settle = (outbox: Outbox, id: string): Outbox => outbox.filter((item) => item.client_msg_id !== id);

export const markFailed = (outbox: Outbox, id: string, error: string): Outbox => update(outbox, id, { state: 'failed', error });

/** Back in the queue: the connection dropped, the answer did not come, or the visitor asked to retry. */
export const requeue = (outbox: Outbox, id: string): Outbox => update(outbox, id, { state: 'queued', error: undefined });

/** After a dropped connection every message on the wire goes back to the queue, in its place. */
export const requeueSending = (outbox: Outbox): Outbox =>
  outbox.some((item) => item.state === 'sending')
    ? outbox.map((item) => (item.state === 'sending' ? { ...item, state: 'queued' } : item))
    : outbox;

/** Drops what the server already confirmed: a message echoed from another tab or answered late. */
export function withoutConfirmed(outbox: Outbox, messages: VisitorMessageView[]): Outbox {
  const confirmed = new Set(messages.map((m) => m.client_msg_id).filter(Boolean));
  return outbox.some((item) => confirmed.has(item.client_msg_id)) ? outbox.filter((item) => !confirmed.has(item.client_msg_id)) : outbox;
}

/** The outbox as saved for a reload of this tab: whatever was on the wire is sent again, same ids. */
export function restoreOutbox(saved: string | null): Outbox {
  try {
    const items = JSON.parse(saved ?? '[]') as Outbox;
    return Array.isArray(items)
      ? items
          .filter((i) => typeof i?.client_msg_id === 'string' && typeof i.text === 'string')
          .map((i) => ({ ...i, state: i.state === 'failed' ? 'failed' : 'queued', attempt: 0 }))
      : [];
  } catch {
    return [];
  }
}
