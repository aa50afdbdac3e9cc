import { answeredByServer } from './pg-db.ts';

/** Statements in flight at once: the next batch gathers while these run, so load makes batches, not queues of
 * statements, and a lone write still goes at once. */
const IN_FLIGHT = 2;
/** The most writes one statement carries. */
const MAX_BATCH = 256;

interface Pending<T, R> {
  item: T;
  resolve: (result: R | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit on PostgreSQL: writes that arrive together go into one statement (`write`, its own transaction:
 * one round trip, one commit, one WAL flush for all), each answered once it is committed. Two writes of one
 * `key` never share a statement, so they keep the order in which their statements lock it. `write` answers
 * what it stored, by the item's index in the batch; an item it left out is answered `undefined`, and so is
 * every item of a statement PostgreSQL refused (it changed nothing): the caller then writes it alone, and its
 * error is its own request's. When whether a statement committed is unknown (the connection lost), its items
 * fail: writing them again could store them twice.
 */
export function createStatementBatcher<T, R>(write: (batch: T[]) => Promise<Map<number, R>>, key: (item: T) => unknown) {
  let queue: Pending<T, R>[] = [];
  let inFlight = 0;

  async function run(batch: Pending<T, R>[]) {
    let stored: Map<number, R>;
    try {
      stored = await write(batch.map((p) => p.item));
    } catch (error) {
      if (answeredByServer(error)) for (const p of batch) p.resolve(undefined);
      else for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => p.resolve(stored.get(i)));
  }

  function flush() {
    while (queue.length > 0 && inFlight < IN_FLIGHT) {
      const batch: Pending<T, R>[] = [];
      const rest: Pending<T, R>[] = [];
      const keys = new Set<unknown>();
      for (const p of queue) {
        const k = key(p.item);
        if (batch.length < MAX_BATCH && !keys.has(k)) {
          keys.add(k);
          batch.push(p);
        } else rest.push(p);
      }
      queue = rest;
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        flush();
      });
    }
  }

  return {
    /** Writes waiting for a statement: writes the store is behind (admission control counts them). */
    backlog: () => queue.length,
    /** Resolves once committed, with what was stored, or `undefined` when the caller must write it alone. */
    add(item: T): Promise<R | undefined> {
      return new Promise((resolve, reject) => {
        queue.push({ item, resolve, reject });
        flush();
      });
    },
  };
}
