import type { Db } from './db.ts';

/** How long a group commit waits for a write lock another connection holds, as `busy_timeout` does in db.ts. */
const LOCK_WAIT_MS = 5000;
const LOCK_RETRY_MS = 5;

const isBusy = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
};

/**
 * Group commit. Writes that arrive in the same turn of the event loop run in one transaction, each in its
 * own savepoint so one failing write does not undo the others, and each caller is answered only once the
 * shared commit is durable. At `synchronous=FULL` a commit waits for the disk, so this turns N fsyncs
 * under load into one while a lone write costs one extra tick.
 *
 * While another connection holds the write lock (a tool, a backup), the batch waits for it without blocking
 * the event loop (SQLite's own busy wait would stop the whole node), and writes arriving meanwhile join it:
 * `backlog()` is what admission control (http/admission.ts) reads to refuse new work instead of queueing it.
 */
export function createWriteBatcher(db: Db) {
  type Pending = { write: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void };
  let queue: Pending[] = [];
  let scheduled = false;
  /** When the current batch first found the lock taken. */
  let waitingSince: number | undefined;
  const begin = db.prepare('BEGIN IMMEDIATE');
  // One savepoint per write, with statements prepared once (db.transaction would build a wrapper per write).
  const savepoint = db.prepare('SAVEPOINT batched_write');
  const release = db.prepare('RELEASE batched_write');
  const undo = db.prepare('ROLLBACK TO batched_write');
  function runAlone(write: () => unknown): { ok: true; value: unknown } | { ok: false; error: unknown } {
    savepoint.run();
    try {
      const value = write();
      release.run();
      return { ok: true, value };
    } catch (error) {
      // Some errors (a full disk) end the whole transaction in SQLite, the writes before this one with it: the
      // batch stops, and every write of it fails (a next savepoint would start and commit a transaction alone).
      if (!db.inTransaction) throw error;
      undo.run();
      release.run();
      return { ok: false, error };
    }
  }
  // SQLite applies a pragma when it compiles it: a prepared `PRAGMA busy_timeout` would not change it again.
  const lockWait = (ms: number) => db.pragma(`busy_timeout = ${ms}`);

  /** Takes the write lock without waiting; false while another connection holds it. */
  function tryBegin(): boolean {
    lockWait(0);
    try {
      begin.run();
      return true;
    } catch (error) {
      if (isBusy(error)) return false;
      throw error;
    } finally {
      lockWait(LOCK_WAIT_MS);
    }
  }

  const flush = () => {
    scheduled = false;
    let locked: boolean;
    try {
      locked = tryBegin();
    } catch (error) {
      return fail(error);
    }
    if (!locked) {
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince < LOCK_WAIT_MS) return schedule(LOCK_RETRY_MS);
      return fail(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    }
    waitingSince = undefined;
    const batch = queue;
    queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      for (const item of batch) outcomes.push(runAlone(item.write));
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  };

  function fail(error: unknown) {
    waitingSince = undefined;
    const batch = queue;
    queue = [];
    for (const item of batch) item.reject(error);
  }

  function schedule(delayMs = 0) {
    if (scheduled) return;
    scheduled = true;
    if (delayMs === 0) setImmediate(flush);
    else setTimeout(flush, delayMs);
  }

  return {
    /** Runs `write` (synchronous SQL) in the next group commit; resolves with its result once committed. */
    run<T>(write: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
    /** Writes waiting for the next commit. */
    backlog: () => queue.length,
  };
}
export type WriteBatcher = ReturnType<typeof createWriteBatcher>;
