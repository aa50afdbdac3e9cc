import fs from 'node:fs';
import type { Db } from './db.ts';

/**
 * The group commit's wait for the disk, taken off the event loop. At `synchronous=FULL` SQLite's COMMIT calls
 * fdatasync on the WAL and the whole node waits for the disk: a sixth of a busy node's time on this machine, far
 * more on a slow disk (issue 16). So the group commit commits at NORMAL (the frames are written to the WAL, not
 * yet synced) and then syncs the WAL file itself on libuv's thread pool; its writes are answered only once that
 * sync is done, as durable as at FULL. Every other write of the connection still commits at the configured level.
 *
 * A sync covers every frame written before it started, so commits made while one runs share the next one, and
 * waiters are answered in the order they committed (a later batch is never acknowledged before an earlier one).
 * What differs from FULL: a read in the moment between the commit and the sync can see rows a power cut would
 * still take back; nothing is acknowledged, sent or emitted from them before the sync.
 */
export function createWalSync(db: Db, level: 'full' | 'extra') {
  const fd = fs.openSync(`${db.name}-wal`, 'r');
  const relax = () => db.exec('PRAGMA synchronous = NORMAL');
  const restore = () => db.exec(`PRAGMA synchronous = ${level.toUpperCase()}`);
  type Waiter = { resolve: () => void; reject: (error: unknown) => void };
  let waiting: Waiter[] = [];
  let syncing = false;

  function syncNow() {
    syncing = true;
    const covered = waiting;
    waiting = [];
    fs.fdatasync(fd, (error) => {
      syncing = false;
      for (const w of covered)
        if (error) w.reject(error);
        else w.resolve();
      if (waiting.length > 0) syncNow();
    });
  }

  return {
    /** Runs `transaction` (which begins and commits) with commits that do not wait for the disk. SQLite refuses to
     * change the level inside a transaction, so it is set around it. */
    relaxed<T>(transaction: () => T): T {
      relax();
      try {
        return transaction();
      } finally {
        restore();
      }
    },
    /** Resolves once every commit made before the call is on disk. */
    durable(): Promise<void> {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        if (!syncing) syncNow();
      });
    },
    /** After the syncs on their way, which need the file open. */
    async close(): Promise<void> {
      if (syncing) await new Promise<void>((resolve) => waiting.push({ resolve, reject: () => resolve() }));
      fs.closeSync(fd);
    },
  };
}
export type WalSync = ReturnType<typeof createWalSync>;
