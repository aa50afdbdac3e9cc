import os from 'node:os';
import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { randomToken } from '../lib/secrets.ts';
import {
  PER_CHANNEL_IN_FLIGHT,
  receiverOf,
  type AttemptLog,
  type AttemptOutcome,
  type EnqueuedRow,
  type FinishedAttempt,
  type SentAttempt,
} from '../store/deliveries.ts';
import type { DeliveryRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** Sends one attempt of a delivery of its kind and says how it went. Must not throw. */
/** Sends one attempt of a delivery. The handler puts the receiver's answer in `log` for the delivery log. */
export type DeliveryHandler = (delivery: DeliveryRecord, log: AttemptLog) => Promise<AttemptOutcome>;

/** Attempts in flight at once by default: twice the per-channel cap, so a hanging receiver leaves half the slots. */
export const DELIVERY_CONCURRENCY = 2 * PER_CHANNEL_IN_FLIGHT;

/** Rows of one key claimed together: enough that a run's claims and records cost little per delivery, few enough
 * that a lease covers them (a run tops itself up as it goes). */
export const RUN_LENGTH = 16;

export interface DeliveryWorkerOptions {
  store: Store;
  events: DomainEvents;
  log: Logger;
  handlers: Record<string, DeliveryHandler>;
  /** Longer than any one attempt can take; a worker that dies leaves its rows to others after it. */
  leaseMs: number;
  /** Keys sent at once (a run each). Each chat has at most one attempt in flight, so a slow receiver holds only
   * its own slots. */
  concurrency?: number;
  /** Rows of one ordering key claimed at once and sent back to back (see `sendRun`). */
  runLength?: number;
  /** The longest idle sleep. With several nodes on one database, rows another node enqueued (or left behind
   * when it died) wake nothing here, so the worker looks again at least this often. */
  maxIdleMs?: number;
}

/**
 * The outbox worker: claims due rows with a lease, sends them concurrently, records each attempt and
 * announces the message state it settles. Idle, it sleeps until the next row is due or one is enqueued.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const { store, events, log, handlers, leaseMs } = options;
  const concurrency = options.concurrency ?? DELIVERY_CONCURRENCY;
  const runLength = options.runLength ?? RUN_LENGTH;
  const maxIdleMs = options.maxIdleMs ?? 60_000;
  const workerId = `${os.hostname()}:${process.pid}:${randomToken(6)}`;
  const inFlight = new Set<Promise<void>>();
  /** The ordering keys whose runs this worker is sending (see `sendRun`); `more` when rows may follow. */
  const sending = new Map<string, { more: boolean }>();
  /** How many of those runs go to each receiver (`receiverOf`). */
  const runsTo = new Map<string, number>();
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  // A poke while a step is claiming (no sleep to wake yet) must not be lost: the step would then sleep past
  // a row that became due meanwhile (the next one of a chat whose attempt just finished).
  let poked = false;

  const poke = () => {
    poked = true;
    wake?.();
  };

  /** A new row of a key being sent here is claimed by that key's run when it tops up, or, when the run ends
   * first, by the step the end of the run starts (it pokes): no need to look. Under a stream of offline
   * messages this spares a claim and a look for the next due row per message. Nor when this worker alone
   * sends as many keys of the row's receiver as the cap lets be in flight: no claim could take the row before
   * one of those runs ends, and its end pokes. With more chats than the cap, every message of a waiting chat
   * cost a claim that read every pending row, and found nothing (issue 16). */
  const enqueued = (row?: EnqueuedRow) => {
    if (row === undefined) return poke();
    const run = sending.get(row.orderingKey);
    if (run) run.more = true;
    else if ((runsTo.get(row.receiver) ?? 0) < PER_CHANNEL_IN_FLIGHT) poke();
  };

  /** One attempt of a claimed row. Never throws. */
  async function send(delivery: DeliveryRecord): Promise<SentAttempt> {
    const handler = handlers[delivery.kind];
    const attemptLog: AttemptLog = {};
    const started = performance.now();
    const outcome: AttemptOutcome = handler
      ? await handler(delivery, attemptLog).catch((err: unknown) => ({
          result: 'retry' as const,
          status: null,
          error: String(err),
          retryAt: Date.now() + 1000,
        }))
      : { result: 'failed', status: null, error: `no sender for deliveries of kind ${delivery.kind}` };
    attemptLog.durationMs = Math.round(performance.now() - started);
    return { sent: delivery, outcome, log: attemptLog };
  }

  /** Announces what recorded attempts settled; false when one row was no longer this worker's. */
  function announce(batch: SentAttempt[], results: (FinishedAttempt | undefined)[]): boolean {
    let held = true;
    batch.forEach(({ sent: delivery }, i) => {
      const finished = results[i];
      if (!finished) {
        log.warn({ delivery: delivery.id }, 'delivery lease lost before its attempt was recorded');
        held = false;
        return;
      }
      const m = finished.message;
      if (m)
        events.emit('message.delivery', {
          chatId: m.chatId,
          channelId: delivery.channelId,
          messageId: m.id,
          delivery: m.delivery,
          error: m.error,
        });
      if (finished.delivery.state !== 'pending') events.emit('delivery.finished', { delivery: finished.delivery });
      if (finished.delivery.state === 'failed')
        log.warn({ delivery: delivery.id, kind: delivery.kind, error: finished.delivery.lastError }, 'delivery failed');
    });
    return held;
  }

  /**
   * Sends a run of one ordering key: the rows claimed together, one after another, each as soon as the one
   * before was delivered, while their records go to the database in batches behind them (one in flight at a
   * time, so a key's records commit in order). The run tops itself up from the key's next rows while it sends.
   * An attempt that is not delivered ends the run: it is recorded, and the rows after it are given back
   * unsent, so nothing after a row leaves before that row is delivered. A crash between a send and its record
   * sends the row again once its lease ends (at least once, as with one row at a time).
   */
  async function sendRun(rows: DeliveryRecord[], claimedAt: number) {
    const first = rows[0]!;
    const key = first.orderingKey;
    const run = { more: rows.length >= runLength };
    const receiver = receiverOf({ channel_id: first.channelId, kind: first.kind });
    sending.set(key, run);
    runsTo.set(receiver, (runsTo.get(receiver) ?? 0) + 1);
    const queue = rows.map((delivery) => ({ delivery, claimedAt }));
    let lastClaimed = rows[rows.length - 1]!.id;
    let toRecord: SentAttempt[] = [];
    let recording: Promise<void> | undefined;
    let topUp: Promise<void> | undefined;
    let held = true;

    const record = () => {
      if (recording || toRecord.length === 0) return;
      const batch = toRecord;
      toRecord = [];
      recording = store.deliveries
        .recordAttempts(workerId, batch)
        .then(
          (results) => {
            if (!announce(batch, results)) held = false;
          },
          (err: unknown) => {
            // Unknown whether it committed: the rows go again once their leases end; stop sending this key.
            log.error({ err, deliveries: batch.map((a) => a.sent.id) }, 'delivery attempts could not be recorded');
            held = false;
          },
        )
        .finally(() => {
          recording = undefined;
          // After a record that failed or found a row no longer this worker's, the later attempts are not
          // recorded either: their rows go again once their leases end, in order behind that row.
          if (held) record();
          else toRecord = [];
        });
    };
    const topUpFrom = (afterId: number) => {
      run.more = false;
      const now = Date.now();
      topUp = store.deliveries
        .claimAfter(workerId, { orderingKey: key, channelId: first.channelId, afterId }, now, leaseMs, runLength)
        .then(
          (more) => {
            for (const delivery of more) queue.push({ delivery, claimedAt: now });
            if (more.length > 0) lastClaimed = more[more.length - 1]!.id;
            if (more.length >= runLength) run.more = true;
          },
          (err: unknown) => log.error({ err, orderingKey: key }, 'could not claim the next deliveries of a key'),
        )
        .finally(() => (topUp = undefined));
    };

    try {
      for (;;) {
        if (!running || !held) break;
        if (run.more && !topUp && queue.length <= runLength / 2) topUpFrom(lastClaimed);
        if (queue.length === 0 && topUp) await topUp;
        const next = queue[0];
        // A row whose lease is half gone is not started: its attempt must end while the row is still held.
        if (!next || Date.now() > next.claimedAt + leaseMs / 2) break;
        queue.shift();
        const attempt = await send(next.delivery);
        toRecord.push(attempt);
        record();
        if (attempt.outcome.result !== 'delivered') break;
      }
    } finally {
      await topUp;
      while (recording) await recording;
      if (queue.length > 0) {
        await store.deliveries
          .release(
            workerId,
            queue.map((q) => q.delivery.id),
          )
          .catch((err: unknown) => log.error({ err, orderingKey: key }, 'could not give back unsent deliveries; their leases will end'));
      }
      if (sending.get(key) === run) sending.delete(key);
      const left = runsTo.get(receiver)! - 1;
      if (left > 0) runsTo.set(receiver, left);
      else runsTo.delete(receiver);
    }
  }

  /** Waits `ms`, or less when a finished attempt or a new row wakes the loop. */
  async function sleep(ms: number) {
    if (poked) return;
    await new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
    clearTimeout(timer);
    wake = undefined;
  }

  async function run() {
    while (running) {
      try {
        await step();
      } catch (err) {
        // The database may be gone for a moment (a PostgreSQL restart, a network blip): the rows wait in it,
        // so look again shortly instead of leaving them until the next start of this node.
        log.error({ err }, 'delivery worker could not reach the database; trying again in 1 s');
        if (running) await sleep(1000);
      }
    }
  }

  /** Claims what is due, starts it, and sleeps until the next row is due or something wakes the loop. */
  async function step() {
    poked = false;
    const free = concurrency - inFlight.size;
    const claimedAt = Date.now();
    const due = free > 0 ? await store.deliveries.claimDue(workerId, claimedAt, leaseMs, free, runLength) : [];
    const runs = new Map<string, DeliveryRecord[]>();
    for (const delivery of due) {
      const run = runs.get(delivery.orderingKey);
      if (run) run.push(delivery);
      else runs.set(delivery.orderingKey, [delivery]);
    }
    for (const rows of runs.values()) {
      const p = sendRun(rows, claimedAt)
        .catch((err: unknown) => log.error({ err, delivery: rows[0]!.id }, 'delivery attempt crashed'))
        .finally(() => {
          inFlight.delete(p);
          poke();
        });
      inFlight.add(p);
    }
    if (due.length > 0 && inFlight.size < concurrency) return;
    // Woken while claiming: look again at once rather than ask when the next row is due.
    if (poked) return;
    const next = await store.deliveries.nextDueAt();
    const saturated = inFlight.size >= concurrency;
    // Rows due but not claimed wait for a busy channel's slot: look again shortly rather than spin.
    const floor = due.length === 0 && next !== null && next <= Date.now() ? 250 : 0;
    const delay = next === null || saturated ? maxIdleMs : Math.max(floor, Math.min(maxIdleMs, next - Date.now()));
    if (running) await sleep(delay);
  }

  return {
    workerId,
    start() {
      if (running) return;
      running = true;
      events.on('delivery.enqueued', enqueued);
      loop = run().catch((err: unknown) => log.error({ err }, 'delivery worker stopped'));
    },
    /** Stops claiming and waits for the attempts in flight to finish their current step. */
    async stop() {
      running = false;
      events.off('delivery.enqueued', enqueued);
      poke();
      await loop;
      await Promise.all(inFlight);
    },
  };
}
export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
