import os from 'node:os';
import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { randomToken } from '../lib/secrets.ts';
import { PER_CHANNEL_IN_FLIGHT, type AttemptLog, type AttemptOutcome } from '../store/deliveries.ts';
import type { DeliveryRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** Sends one attempt of a delivery of its kind and says how it went. Must not throw. */
/** Sends one attempt of a delivery. The handler puts the receiver's answer in `log` for the delivery log. */
export type DeliveryHandler = (delivery: DeliveryRecord, log: AttemptLog) => Promise<AttemptOutcome>;

/** Attempts in flight at once by default: twice the per-channel cap, so a hanging receiver leaves half the slots. */
export const DELIVERY_CONCURRENCY = 2 * PER_CHANNEL_IN_FLIGHT;

export interface DeliveryWorkerOptions {
  store: Store;
  events: DomainEvents;
  log: Logger;
  handlers: Record<string, DeliveryHandler>;
  /** Longer than any one attempt can take; a worker that dies leaves its rows to others after it. */
  leaseMs: number;
  /** Attempts in flight at once. Each chat has at most one, so a slow receiver holds only its own slots. */
  concurrency?: number;
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
  const maxIdleMs = options.maxIdleMs ?? 60_000;
  const workerId = `${os.hostname()}:${process.pid}:${randomToken(6)}`;
  const inFlight = new Set<Promise<void>>();
  /** The ordering keys whose rows this worker is sending one after another (see `attempt`). */
  const sending = new Map<string, number>();
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

  /** A new row of a key being sent here is claimed by the record of the attempt before it, or, when that
   * record came too early to see it, by the step the end of the sending starts (it pokes): no need to look.
   * Under a stream of offline messages this spares a claim and a look for the next due row per message. */
  const enqueued = (orderingKey?: string) => {
    if (orderingKey === undefined || !sending.has(orderingKey)) poke();
  };

  /** Sends `first`, then each next row of its chat that the record of the one before claimed. */
  async function attempt(first: DeliveryRecord) {
    const key = first.orderingKey;
    sending.set(key, (sending.get(key) ?? 0) + 1);
    try {
      for (let delivery: DeliveryRecord | undefined = first; delivery;) delivery = await attemptOne(delivery);
    } finally {
      const n = sending.get(key)! - 1;
      if (n === 0) sending.delete(key);
      else sending.set(key, n);
    }
  }

  async function attemptOne(delivery: DeliveryRecord): Promise<DeliveryRecord | undefined> {
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
    // While running, the chat's next row (if due) is claimed with this record and sent next in this same slot.
    const claimNext = running ? { leaseMs } : undefined;
    const finished = await store.deliveries.recordAttempt(delivery.id, workerId, outcome, attemptLog, claimNext);
    if (!finished) {
      log.warn({ delivery: delivery.id }, 'delivery lease lost before its attempt was recorded');
      return undefined;
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
    // A row claimed is sent even if stop() began meanwhile: its lease would otherwise hold the chat's rows back.
    return finished.next;
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
    const due = free > 0 ? await store.deliveries.claimDue(workerId, Date.now(), leaseMs, free) : [];
    for (const delivery of due) {
      const p = attempt(delivery)
        .catch((err: unknown) => log.error({ err, delivery: delivery.id }, 'delivery attempt crashed'))
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
