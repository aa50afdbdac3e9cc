import type { Db } from './db.ts';

/**
 * Group commit. Writes that arrive in the same turn of the event loop run in one transaction, each in its
 * own savepoint so one failing write does not undo the others, and each caller is answered only once the
 * shared commit is durable. At `synchronous=FULL` a commit waits for the disk, so this turns N fsyncs
 * under load into one while a lone write costs one extra tick.
 */
export function createWriteBatcher(db: Db) {
  type Pending = { write: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };
  let queue: Pending[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      db.transaction(() => {
        for (const item of batch) {
          try {
            outcomes.push({ ok: true, value: db.transaction(item.write)() });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      }).immediate();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  };

  return {
    /** Runs `write` (synchronous SQL) in the next group commit; resolves with its result once committed. */
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}
export type WriteBatcher = ReturnType<typeof createWriteBatcher>;
