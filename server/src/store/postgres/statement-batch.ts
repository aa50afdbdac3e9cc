import { answeredByServer } from './pg-db.ts';

/** Statements in flight at once: the next batch gathers while these run, so load makes batches, not queues of
 * statements. */
const IN_FLIGHT = 2;
/** The most writes one statement carries. */
const MAX_BATCH = 256;

/**
 * Calls `fn` once the current turn of the event loop is done, however often it is asked meanwhile: the requests
 * whose bytes the turn read (every socket that had some) then share a statement, where the first of them would
 * otherwise go alone and the next alone beside it. A lone write waits only for the end of the turn, no timer.
 */
export function atEndOfTurn(fn: () => void): () => void {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      fn();
    });
  };
}

interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export interface StatementBatchOptions<T, R> {
  /** Writes a batch in one statement (its own transaction); answers what it stored, by the item's index. */
  write: (batch: T[]) => Promise<Map<number, R>>;
  /** Writes one item in a transaction of its own: an item `write` left out, one of a statement PostgreSQL
   * refused (it changed nothing), or one `batchable` turns away. Its error is then its own request's. */
  alone: (item: T) => Promise<R>;
  /** Writes of one key go one at a time, in the order they were added, whichever way each is written. */
  key: (item: T) => unknown;
  batchable?: (item: T) => boolean;
  /** Items `write` takes in a statement of their own (one round trip and one commit, as a batch of one), as
   * their locks must not be taken in a batch's order. */
  solo?: (item: T) => boolean;
}

/**
 * Group commit on PostgreSQL: writes that arrive together go into one statement (one round trip, one commit, one
 * WAL flush for all), each answered once it is committed. A write of a key waits until the key's write before it
 * is committed, batch or alone, so a chat's messages keep their order even when one of them is written alone or
 * one statement waits on a lock longer than the next. When whether a statement committed is unknown (the
 * connection lost), its items fail: writing them again could store them twice.
 */
export function createStatementBatcher<T, R>(options: StatementBatchOptions<T, R>) {
  const { write, alone, key, batchable = () => true, solo = () => false } = options;
  let queue: Pending<T, R>[] = [];
  let inFlight = 0;
  const flushSoon = atEndOfTurn(() => flush());
  /** Keys with a write under way. */
  const busy = new Set<unknown>();

  const writeAlone = (p: Pending<T, R>) => alone(p.item).then(p.resolve, p.reject);

  async function run(batch: Pending<T, R>[]) {
    let stored: Map<number, R>;
    try {
      stored = await write(batch.map((p) => p.item));
    } catch (error) {
      if (!answeredByServer(error)) return batch.forEach((p) => p.reject(error));
      stored = new Map();
    }
    await Promise.all(batch.map((p, i) => (stored.has(i) ? p.resolve(stored.get(i)!) : writeAlone(p))));
  }

  function start(keys: unknown[], work: Promise<unknown>) {
    for (const k of keys) busy.add(k);
    void work.finally(() => {
      for (const k of keys) busy.delete(k);
      flush();
    });
  }

  function flush() {
    while (queue.length > 0 && inFlight < IN_FLIGHT) {
      const batch: Pending<T, R>[] = [];
      const rest: Pending<T, R>[] = [];
      /** Keys met in this pass: a later write of one waits for the earlier. */
      const met = new Set<unknown>();
      for (const p of queue) {
        const k = key(p.item);
        const free = !busy.has(k) && !met.has(k);
        met.add(k);
        // Writes alone and solo statements are not counted in IN_FLIGHT: a burst of them takes as many
        // connections as the pool has (they are rare: a chat's first agent answer, a failed batch's fallback).
        if (free && !batchable(p.item)) start([k], writeAlone(p));
        else if (free && solo(p.item)) start([k], run([p]));
        else if (free && batch.length < MAX_BATCH) batch.push(p);
        else rest.push(p);
      }
      queue = rest;
      if (batch.length === 0) return;
      inFlight++;
      start(
        batch.map((p) => key(p.item)),
        run(batch).finally(() => inFlight--),
      );
    }
  }

  return {
    /** Writes waiting for a statement: writes the store is behind (admission control counts them). */
    backlog: () => queue.length,
    /** Resolves once committed, with what was stored. */
    add(item: T): Promise<R> {
      return new Promise((resolve, reject) => {
        queue.push({ item, resolve, reject });
        flushSoon();
      });
    },
  };
}
