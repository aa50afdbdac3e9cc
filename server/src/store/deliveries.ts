import { cleanText } from '@svc/protocol';
import { newEventId } from '../lib/random-id.ts';
import type { DeliveryRecord, NewDelivery } from './records.ts';

export interface DeliveryRow {
  id: number;
  kind: string;
  channel_id: number;
  chat_id: number | null;
  message_id: number | null;
  ordering_key: string;
  event_id: string;
  url: string;
  payload_json: string;
  state: DeliveryRecord['state'];
  attempts: number;
  max_attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  last_status: number | null;
  created_at: number;
  replay_of: number | null;
}

/** The payload of a record read from the database, as stored: a sender sends that text as it is. Not enumerable, so
 * a copy of the record (a spread) does not carry it, and a copy's payload may be changed. */
const STORED_JSON = Symbol('stored payload');
type Stored = DeliveryRecord & { [STORED_JSON]?: string };

/** Parses the stored text the first time `payload` is read, then keeps the value as a plain property. */
function parseStoredPayload(this: Stored): unknown {
  const payload = JSON.parse(this[STORED_JSON]!) as unknown;
  Object.defineProperty(this, 'payload', { value: payload, enumerable: true, writable: true, configurable: true });
  return payload;
}

/**
 * A record whose payload is parsed from its stored text only when something reads it (most senders don't).
 * `fields` is a new object the record becomes: properties defined on it with one shared getter cost a tenth of an
 * object literal with its own getter spread from the fields plus a WeakMap entry (3-5 us a record, two records an
 * outbox attempt; issue 16).
 */
function withStoredPayload(fields: Omit<DeliveryRecord, 'payload'>, json: string): DeliveryRecord {
  Object.defineProperty(fields, 'payload', { get: parseStoredPayload, enumerable: true, configurable: true });
  Object.defineProperty(fields, STORED_JSON, { value: json });
  return fields as DeliveryRecord;
}

/** A delivery's body as sent: the stored text of a row read from the database, else its payload serialized. */
export const payloadJson = (d: DeliveryRecord): string => (d as Stored)[STORED_JSON] ?? JSON.stringify(d.payload);

export const toDelivery = (r: DeliveryRow): DeliveryRecord =>
  withStoredPayload(
    {
      id: r.id,
      kind: r.kind,
      channelId: r.channel_id,
      chatId: r.chat_id,
      messageId: r.message_id,
      orderingKey: r.ordering_key,
      eventId: r.event_id,
      url: r.url,
      state: r.state,
      attempts: r.attempts,
      maxAttempts: r.max_attempts,
      nextAttemptAt: r.next_attempt_at,
      lastError: r.last_error,
      lastStatus: r.last_status,
      createdAt: r.created_at,
      replayOf: r.replay_of,
    },
    r.payload_json,
  );

/** A sent delivery as its attempt left it, sharing its payload (not parsed for it when it was not yet). */
export function afterAttempt(
  sent: DeliveryRecord,
  change: Pick<DeliveryRecord, 'state' | 'attempts' | 'lastError' | 'lastStatus' | 'nextAttemptAt'>,
): DeliveryRecord {
  const json = (sent as Stored)[STORED_JSON];
  if (json === undefined || !Object.getOwnPropertyDescriptor(sent, 'payload')?.get) return { ...sent, ...change };
  // Copied key by key: a spread would read `payload` and so parse it.
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(sent)) if (key !== 'payload') fields[key] = sent[key as keyof DeliveryRecord];
  return withStoredPayload(Object.assign(fields as Omit<DeliveryRecord, 'payload'>, change), json);
}

export type DeliveryToInsert = NewDelivery & { chatId: number | null; messageId: number | null };

/** The columns of a new outbox row, in the order of `deliveryValues` (both dialects insert with these). */
export const DELIVERY_COLUMNS =
  'kind, channel_id, chat_id, message_id, ordering_key, event_id, url, payload_json, max_attempts, next_attempt_at, created_at, replay_of';

/** A chat's rows share one ordering key (sent in order); other rows are ordered per channel. */
export const orderingKeyOf = (d: DeliveryToInsert) => d.orderingKey ?? (d.chatId !== null ? `chat:${d.chatId}` : `channel:${d.channelId}`);

export const deliveryValues = (d: DeliveryToInsert, now: number): unknown[] => [
  d.kind,
  d.channelId,
  d.chatId,
  d.messageId,
  orderingKeyOf(d),
  d.eventId ?? newEventId(),
  d.url,
  JSON.stringify(d.payload),
  d.maxAttempts,
  d.dueAt ?? now,
  now,
  d.replayOf ?? null,
];

export type AttemptOutcome =
  | { result: 'delivered'; status: number }
  /** Try again at `retryAt`, or fail for good when the attempts are used up. */
  | { result: 'retry'; status: number | null; error: string; retryAt: number }
  /** The receiver has spoken (an error body): no further attempt. */
  | { result: 'failed'; status: number | null; error: string };

/** What the worker saw of one attempt besides its outcome. */
export interface AttemptLog {
  durationMs?: number;
  /** The receiver's answer body, as it came (the log keeps its start). */
  answer?: string;
}

/** How much of an answer the log keeps. */
export const ANSWER_LOGGED = 2000;

/** An attempt's error as the outbox keeps it: it may quote the receiver, so it is cleaned as any party's text. */
export const attemptError = (outcome: AttemptOutcome): string | null => (outcome.result === 'delivered' ? null : cleanText(outcome.error));

/** The start of a receiver's answer as the attempt log keeps it: text as any party's (PostgreSQL refuses NUL). */
export const loggedAnswer = (log: AttemptLog): string | null =>
  log.answer === undefined ? null : cleanText(log.answer.slice(0, ANSWER_LOGGED));

export interface AttemptRecord {
  status: number | null;
  error: string | null;
  at: number;
  durationMs: number | null;
  answer: string | null;
}

export interface FinishedAttempt {
  delivery: DeliveryRecord;
  /** Set when the attempt changed the state of the message the delivery carries. */
  message: { id: number; chatId: number; delivery: 'delivered' | 'failed'; error: string | null } | null;
}

/** One attempt of a claimed row, to record. */
export interface SentAttempt {
  sent: DeliveryRecord;
  outcome: AttemptOutcome;
  log: AttemptLog;
}

/** The state of a delivery and of the message it carries after an attempt (both dialects decide alike). */
export function settle(row: Pick<DeliveryRecord, 'attempts' | 'maxAttempts'>, outcome: AttemptOutcome) {
  const exhausted = outcome.result === 'retry' && row.attempts + 1 >= row.maxAttempts;
  const state: DeliveryRecord['state'] =
    outcome.result === 'delivered' ? 'delivered' : outcome.result === 'failed' || exhausted ? 'failed' : 'pending';
  return { state, error: attemptError(outcome) };
}

/** A hanging receiver holds at most this many attempts at once, so it never takes every slot of a worker (half
 * of them). Chats of one Chat API channel go side by side up to it: at 8, 50 chats of one fast integrator were
 * sent 8 at a time and the outbox fell seconds behind the agents. Counted per receiver of a channel (see
 * `receiverOf`). */
export const PER_CHANNEL_IN_FLIGHT = 32;

/**
 * Whom a channel's row goes to, as the in-flight cap counts: each kind of a channel's deliveries has a receiver of
 * its own (its bot provider, its integrator, the site owner's server, the mail server). Counted together, 50 bot
 * chats' events and the bot's answers to the integrator shared 32 slots and waited for each other (issue 16), and
 * a hanging integrator stopped the bot's conversations. `receiverSql` is the same in SQL (both dialects).
 */
export const receiverOf = (row: { channel_id: number; kind: string }) => `${row.channel_id}/${row.kind}`;
export const receiverSql = `channel_id || '/' || kind`;

/** What the delivery worker needs to know of a row just written to decide whether to look for it (see
 * `delivery.enqueued`). */
export interface EnqueuedRow {
  orderingKey: string;
  receiver: string;
}
export const enqueuedRow = (d: DeliveryToInsert): EnqueuedRow => ({
  orderingKey: orderingKeyOf(d),
  receiver: receiverOf({ channel_id: d.channelId, kind: d.kind }),
});

export interface DeliveriesRepo {
  /** Enqueues a delivery that no other row depends on (typing changes, events). */
  enqueue(d: DeliveryToInsert): Promise<number>;
  /** Sends a failed message again: a new delivery with the same request and event id. False unless the
   * message's last delivery failed. */
  requeueFailedMessage(messageId: number): Promise<boolean>;
  /**
   * Claims up to `limit` due ordering keys for `leaseMs`: each key's head and, with `perKey` > 1, the rows after
   * it that can follow at once (pending, due, free, same channel), up to `perKey` rows of the key, in order.
   * The per-channel cap counts keys in flight. A worker that dies leaves its rows to others once the lease ends.
   */
  claimDue(workerId: string, now: number, leaseMs: number, limit: number, perKey?: number): Promise<DeliveryRecord[]>;
  /**
   * Claims the rows of `orderingKey` after `afterId` that can follow at once (pending, due, free, of `channelId`),
   * up to `limit`, in order, for `leaseMs`: a worker sending a key's run tops it up while it sends. Nothing when
   * a pending row of the key up to `afterId` is not this worker's (it lost the key).
   */
  claimAfter(
    workerId: string,
    key: { orderingKey: string; channelId: number; afterId: number },
    now: number,
    leaseMs: number,
    limit: number,
  ): Promise<DeliveryRecord[]>;
  /**
   * Records attempts of one ordering key, in order, in one commit: each outcome (and the carried message's state)
   * if the worker still holds the row, undefined where it does not (its lease ran out and another worker owns it).
   * `sent` is the row as it was sent: the finished delivery is built from it and the row's new state.
   */
  recordAttempts(workerId: string, attempts: SentAttempt[]): Promise<(FinishedAttempt | undefined)[]>;
  /** Gives back rows this worker claimed but will not send (a run cut short): their lease ends now. */
  release(workerId: string, ids: number[]): Promise<void>;
  /**
   * Sends failed deliveries again: each becomes a new row with the same request and event id (the receiver's
   * de-duplication key) pointing at the one it replays. A delivery already replayed, not failed, or carrying a
   * message that was sent again since is left alone. Answers the new rows.
   */
  replay(ids: number[]): Promise<DeliveryRecord[]>;
  /** The failed, not yet replayed deliveries of a channel created in [since, until), oldest first. */
  replayable(filter: { channelId: number; kind?: string; since: number; until: number; limit: number }): Promise<number[]>;
  findById(id: number): Promise<DeliveryRecord | undefined>;
  /** The replays of a delivery (normally at most one). */
  replaysOf(id: number): Promise<number[]>;
  /**
   * Sends a held delivery of a chat now: a pending row of `kind` never tried nor claimed and not due before
   * `now`, whose payload `change` answers with a new one (null leaves the row alone). The row keeps its id, so
   * its place in its ordering key. False when no such row was found (sent already, or never held).
   */
  releaseHeld(chatId: number, kind: string, change: (payload: unknown) => unknown, now: number): Promise<boolean>;
  /** When the next pending row becomes due, or null when none is pending. */
  nextDueAt(): Promise<number | null>;
  listByChat(chatId: number): Promise<DeliveryRecord[]>;
  /** A channel's outbound requests, newest first, optionally of one kind and state; `before` pages back. */
  listByChannel(filter: {
    channelId: number;
    kind?: string;
    state?: string;
    before?: number;
    since?: number;
    until?: number;
    limit: number;
  }): Promise<DeliveryRecord[]>;
  /** Every attempt of a delivery: HTTP status (null when none came), error, when it ended, how long it took,
   * and the start of the answer. */
  attempts(deliveryId: number): Promise<AttemptRecord[]>;
}
