import type { Db } from './db.ts';
import type { WalSync } from './wal-sync.ts';

/** How long a group commit waits for a write lock another connection holds, as `busy_timeout` does in db.ts. */
const LOCK_WAIT_MS = 5000;
const LOCK_RETRY_MS = 5;

const isBusy = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT';
};

/**
 * Group commit. Writes that arrive in the same turn of the event loop run in one transaction, and each caller
 * is answered only once the shared commit is durable. At `synchronous=FULL` a commit waits for the disk, so
 * this turns N fsyncs under load into one while a lone write costs one extra tick.
 *
 * One failing write must not undo the others. A savepoint per write would see to that, but it costs every
 * write two more statements for the rare one that fails (issue 16). So a batch first runs without savepoints;
 * only when one of its writes throws is its transaction rolled back, begun again and the batch run with one
 * savepoint per write. A write is a synchronous function of the database (it may run twice, the first run undone).
 * Not a savepoint around the whole batch to undo the first run: inside a savepoint SQLite copies every page a
 * write changes to a statement journal first, which past 64 KiB (most batches of 20 Chat API messages) is a
 * temporary file written page by page: a quarter of the store's CPU per message at synchronous=NORMAL (issue 16).
 * `beforeCommit` runs in every batch's transaction after its writes (the search index's catch-up).
 *
 * While another connection holds the write lock (a tool, a backup), the batch waits for it without blocking
 * the event loop (SQLite's own busy wait would stop the whole node), and writes arriving meanwhile join it:
 * `backlog()` is what admission control (http/admission.ts) reads to refuse new work instead of queueing it.
 */
export function createWriteBatcher(db: Db, options: { beforeCommit?: () => void; walSync?: WalSync } = {}) {
  const beforeCommit = options.beforeCommit ?? (() => undefined);
  const { walSync } = options;
  /** `alone`: of a batch whose first run was undone; it runs with a savepoint per write. */
  type Pending = { write: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void; alone?: boolean };
  let queue: Pending[] = [];
  let scheduled = false;
  /** When the current batch first found the lock taken. */
  let waitingSince: number | undefined;
  const begin = db.prepare('BEGIN IMMEDIATE');
  // Statements prepared once (db.transaction would build a wrapper per write).
  const savepoint = db.prepare('SAVEPOINT batched_write');
  const release = db.prepare('RELEASE batched_write');
  const undo = db.prepare('ROLLBACK TO batched_write');
  type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
  /** The batch's writes one after another with no savepoint: their outcomes, or undefined once one throws
   * (the transaction then holds a part of that write). An error that ended the transaction is thrown. */
  function runTogether(batch: Pending[]): Outcome[] | undefined {
    const outcomes: Outcome[] = [];
    for (const item of batch) {
      try {
        outcomes.push({ ok: true, value: item.write() });
      } catch (error) {
        if (!db.inTransaction) throw error;
        return undefined;
      }
    }
    return outcomes;
  }
  function runAlone(write: () => unknown): Outcome {
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
  // exec, not db.pragma, which wraps the same statement in a JS statement object and reads its rows back:
  // a sixth of the cost, twice per group commit (issue 16).
  const lockWait = (ms: number) => db.exec(`PRAGMA busy_timeout = ${ms}`);

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

  /** Begins, runs and commits the waiting writes: their outcomes; 'locked' while another connection holds the
   * write lock; 'failed' when the batch failed as a whole (its writes are rejected). */
  const commitBatch = (): { batch: Pending[]; outcomes: Outcome[] } | 'locked' | 'failed' => {
    try {
      if (!tryBegin()) return 'locked';
    } catch (error) {
      fail(error);
      return 'failed';
    }
    const batch = queue;
    queue = [];
    try {
      let outcomes = batch[0]?.alone ? undefined : runTogether(batch);
      if (!outcomes) {
        if (!batch[0]?.alone) {
          // The first run undone; another connection may take the lock in between: the batch then waits for it.
          db.exec('ROLLBACK');
          for (const item of batch) item.alone = true;
          if (!tryBegin()) {
            queue = [...batch, ...queue];
            return 'locked';
          }
        }
        outcomes = batch.map((item) => runAlone(item.write));
      }
      beforeCommit();
      db.exec('COMMIT');
      return { batch, outcomes };
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      for (const item of batch) item.reject(error);
      return 'failed';
    }
  };

  const settle = (batch: Pending[], outcomes: Outcome[]) =>
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });

  const flush = () => {
    scheduled = false;
    const walFailure = walSync?.failure();
    if (walFailure) return fail(walFailure);
    let committed: ReturnType<typeof commitBatch>;
    try {
      committed = walSync ? walSync.relaxed(commitBatch) : commitBatch();
    } catch (error) {
      // Setting the sync level failed (a closed database): nothing was begun.
      return fail(error);
    }
    if (committed === 'failed') return;
    if (committed === 'locked') {
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince < LOCK_WAIT_MS) return schedule(LOCK_RETRY_MS);
      return fail(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    }
    waitingSince = undefined;
    const { batch, outcomes } = committed;
    if (!walSync) return settle(batch, outcomes);
    // Committed, but on disk only once the sync is done; when it fails the callers are told so (see wal-sync.ts).
    walSync.durable().then(
      () => settle(batch, outcomes),
      (error: unknown) => batch.forEach((item) => item.reject(error)),
    );
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
