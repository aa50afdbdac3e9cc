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
 * What differs from FULL: a read in the moment between the commit and the sync (a console loading a chat) can
 * see rows a power cut would still take back; no write is acknowledged, and the outbox claims nothing, before it.
 *
 * A failed sync is final, as PostgreSQL treats one: Linux may have dropped the pages it could not write, so the
 * batch's callers are told it failed and every later group commit is refused until the node restarts and SQLite
 * recovers the WAL as the disk has it.
 */
export function createWalSync(db: Db, level: 'full' | 'extra') {
  // SQLite opens the file a symlink points to, and its WAL beside that file: the path it reports, not SVC_DB's.
  const file = (db.pragma('database_list') as { name: string; file: string }[]).find((d) => d.name === 'main')!.file;
  const fd = fs.openSync(`${file}-wal`, 'r');
  const relax = () => db.exec('PRAGMA synchronous = NORMAL');
  const restore = () => db.exec(`PRAGMA synchronous = ${level.toUpperCase()}`);
  type Waiter = { resolve: () => void; reject: (error: unknown) => void };
  let waiting: Waiter[] = [];
  let syncing = false;
  let failure: Error | undefined;
  /** Called when no sync is on its way and none is asked for. */
  const onIdle: (() => void)[] = [];

  function syncNow() {
    syncing = true;
    const covered = waiting;
    waiting = [];
    fs.fdatasync(fd, (error) => {
      syncing = false;
      if (error && !failure)
        failure = new Error(`syncing the database's WAL failed (${error.message}): writes are refused until the node restarts`, {
          cause: error,
        });
      for (const w of covered)
        if (failure) w.reject(failure);
        else w.resolve();
      if (waiting.length > 0) syncNow();
      else for (const idle of onIdle.splice(0)) idle();
    });
  }

  return {
    /** Set once a sync failed: the group commit then refuses every batch. */
    failure: () => failure,
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
    /** Once no sync is on its way or asked for (they need the file open); the database closes right after. */
    async close(): Promise<void> {
      while (syncing || waiting.length > 0) await new Promise<void>((resolve) => onIdle.push(resolve));
      fs.closeSync(fd);
    },
  };
}
export type WalSync = ReturnType<typeof createWalSync>;
