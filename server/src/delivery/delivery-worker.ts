import os from 'node:os';
import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { randomToken } from '../lib/secrets.ts';
import type { AttemptLog, AttemptOutcome, AttemptToRecord, FinishedAttempt } from '../store/deliveries.ts';
import type { DeliveryRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

/** Sends one attempt of a delivery. The handler puts the receiver's answer in `log` for the delivery log. */
export type DeliveryHandler = (delivery: DeliveryRecord, log: AttemptLog) => Promise<AttemptOutcome>;

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
 * announces the message state it settles. Attempts that finish while the worker is writing are recorded
 * together, with the claim of the rows due next, in one commit (`settle`): under load the outbox costs one
 * write per batch, not two per delivery. Idle, it sleeps until the next row is due or one is enqueued.
 */
export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const { store, events, log, handlers, leaseMs } = options;
  const concurrency = options.concurrency ?? 32;
  const maxIdleMs = options.maxIdleMs ?? 60_000;
  const workerId = `${os.hostname()}:${process.pid}:${randomToken(6)}`;
  /** Rows claimed and not yet recorded: sending, or sent and waiting in `done`. */
  let held = 0;
  let done: AttemptToRecord[] = [];
  const sending = new Set<Promise<void>>();
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  // A poke while a step is writing (no sleep to wake yet) must not be lost: the step would then sleep past
  // a row that became due meanwhile or an attempt that finished.
  let poked = false;

  const poke = () => {
    poked = true;
    wake?.();
  };

  async function send(delivery: DeliveryRecord): Promise<void> {
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
    done.push({ id: delivery.id, outcome, log: attemptLog });
    poke();
  }

  function announce(delivery: AttemptToRecord, finished: FinishedAttempt | undefined) {
    if (!finished) {
      log.warn({ delivery: delivery.id }, 'delivery lease lost before its attempt was recorded');
      return;
    }
    const m = finished.message;
    if (m)
      events.emit('message.delivery', {
        chatId: m.chatId,
        channelId: finished.delivery.channelId,
        messageId: m.id,
        delivery: m.delivery,
        error: m.error,
      });
    if (finished.delivery.state !== 'pending') events.emit('delivery.finished', { delivery: finished.delivery });
    if (finished.delivery.state === 'failed')
      log.warn({ delivery: delivery.id, kind: finished.delivery.kind, error: finished.delivery.lastError }, 'delivery failed');
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
    // After stop() the loop goes on until every claimed row is sent and recorded: a claimed row left
    // unrecorded would hold its chat's later rows back until its lease ends.
    while (running || held > 0) {
      try {
        await step();
      } catch (err) {
        // The database may be gone for a moment (a PostgreSQL restart, a network blip): the rows wait in it,
        // so look again shortly instead of leaving them until the next start of this node.
        if (!running) {
          // Stopping: the rows not recorded are sent again once their lease ends (at least once).
          log.error({ err }, 'delivery worker could not record its last attempts before stopping');
          return;
        }
        log.error({ err }, 'delivery worker could not reach the database; trying again in 1 s');
        await sleep(1000);
      }
    }
  }

  /** Records what finished, claims what is due, starts it, and sleeps until there is more to do. */
  async function step() {
    poked = false;
    const batch = done;
    done = [];
    const free = running ? concurrency - (held - batch.length) : 0;
    let settled;
    try {
      settled = await store.deliveries.settle(workerId, batch, free > 0 ? { now: Date.now(), leaseMs, limit: free } : null);
    } catch (err) {
      done = [...batch, ...done]; // recorded in none: try them again with the next step
      throw err;
    }
    held -= batch.length;
    batch.forEach((attempt, i) => announce(attempt, settled.finished[i]));
    held += settled.claimed.length;
    for (const delivery of settled.claimed) {
      // A row claimed is sent even if stop() began meanwhile: its lease would otherwise hold the chat's rows back.
      const p = send(delivery)
        .catch((err: unknown) => log.error({ err, delivery: delivery.id }, 'delivery attempt crashed'))
        .finally(() => sending.delete(p));
      sending.add(p);
    }
    if (done.length > 0) return;
    const next = settled.nextDueAt;
    const saturated = held >= concurrency;
    // Rows due but not claimed wait for a busy channel's slot (freed by an attempt here, which pokes, or on
    // another node): look again shortly rather than spin.
    const floor = settled.claimed.length === 0 && next !== null && next <= Date.now() ? 250 : 0;
    const delay = !running || next === null || saturated ? maxIdleMs : Math.max(floor, Math.min(maxIdleMs, next - Date.now()));
    if (running || held > 0) await sleep(delay);
  }

  return {
    workerId,
    start() {
      if (running) return;
      running = true;
      events.on('delivery.enqueued', poke);
      loop = run().catch((err: unknown) => log.error({ err }, 'delivery worker stopped'));
    },
    /** Stops claiming and waits for the attempts in flight to be sent and recorded. */
    async stop() {
      running = false;
      events.off('delivery.enqueued', poke);
      poke();
      await loop;
      await Promise.all(sending);
    },
  };
}
export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
