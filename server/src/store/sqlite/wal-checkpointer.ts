import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { BUSY_TIMEOUT_MS, type Db } from './db.ts';

/** How often it looks whether enough was written for a checkpoint. */
const CHECKPOINT_EVERY_MS = 1000;
/** Rows written since the last checkpoint that make the next one due (about 700 Chat API messages, a few hundred
 * to a few thousand WAL pages). A quieter node checkpoints rarely, as SQLite would: each checkpoint syncs two
 * files, which at FULL delays the group commit's own sync of the WAL. */
const CHECKPOINT_AFTER_CHANGES = 2000;
/** The node's own connection checkpoints when the WAL grows past this many pages (8 MB at 4 KB pages). SQLite
 * restarts the WAL only after a checkpoint that copied all of it, which the worker's passes never finish while
 * commits keep coming: then this checkpoint, which finds most frames copied already, lets it restart, and it
 * bounds the WAL should the worker fall behind or be gone. SQLite's default is 1,000. */
const FALLBACK_AUTOCHECKPOINT_PAGES = 2000;
/** How long a shutdown waits for a checkpoint of the worker's, and for the worker to close: one that takes longer
 * is stuck (a disk that stopped answering its sync) and the node closes without it. An erasure waits for as long as
 * it takes: the worker would still hold SQLite's checkpoint lock, and the erased text would stay in the WAL. */
const CHECKPOINT_STUCK_MS = 10_000;
/** How long an erasure tries to empty the WAL while another connection keeps it from it, and how often. */
const PURGE_WAIT_MS = 5000;
const PURGE_RETRY_MS = 100;

// A PASSIVE checkpoint copies the frames committed before it started and never waits for the writer; the ones
// committed meanwhile are copied by the next pass, so a few passes empty the WAL and the writer can restart it.
const checkpointWorkerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = ' + workerData.sync);
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    for (let pass = 0; pass < 3; pass++) {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      if (result.busy || result.log === result.checkpointed) break;
    }
    parentPort.postMessage({ ok: true });
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String(error) });
  }
});
`;

/**
 * Checkpoints off the event loop. SQLite checkpoints in the COMMIT that takes the WAL past 1,000 pages, and a
 * checkpoint syncs the WAL and the database file while the whole node waits: at 4,500 Chat API messages a second
 * (`synchronous=NORMAL`, this machine) COMMIT held the event loop 21-24 us per message, up to 275 ms at a time;
 * 12-18 us with the checkpoints here (issue 16).
 * A worker thread with a connection of its own checkpoints instead, at most once a second, while the node goes on; the
 * node's connection keeps a far larger threshold as a fallback. The syncs are SQLite's own, at the configured
 * level, so durability is unchanged: a commit is in the WAL (and at FULL on disk) whatever the checkpoint does.
 */
export function createWalCheckpointer(
  db: Db,
  sync: string,
  {
    everyMs = CHECKPOINT_EVERY_MS,
    afterChanges = CHECKPOINT_AFTER_CHANGES,
    stuckMs = CHECKPOINT_STUCK_MS,
    purgeWaitMs = PURGE_WAIT_MS,
    workerSource = checkpointWorkerSource,
    onPurged = (): void => undefined,
  }: {
    everyMs?: number;
    afterChanges?: number;
    stuckMs?: number;
    purgeWaitMs?: number;
    workerSource?: string;
    /** Runs right after each truncation, before any other write: no erasure committed until then has a copy left
     * in the database's files. `late` when an erasure had given up waiting for it since the last one, or at start
     * (a node that stopped while one was pending). It runs with `busy_timeout` at 0; if it throws, the next tick
     * truncates (an empty WAL at once) and runs it again. */
    onPurged?: (late: boolean) => void;
  } = {},
) {
  const file = (db.pragma('database_list') as { name: string; file: string }[]).find((d) => d.name === 'main')!.file;
  // Every write of the connection counts, the group commit's and the others'.
  const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck();
  let checkpointedAt = totalChanges.get()!;
  let worker: Worker | undefined;
  let exited = false;
  let failed = false;
  let closing = false;
  let running: Promise<void> | undefined;
  let finish: () => void = () => undefined;
  /** Set while an erasure's text may be left in the WAL. */
  let purgePending = false;
  /** Set when an erasure gave up waiting (it answered 202) and no truncation has been done since. */
  let gaveUp = false;

  db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);

  /** Back to SQLite's own checkpoints, as before, should the worker fail: the WAL never grows without bound. */
  function fallBack() {
    failed = true;
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
    finish();
  }

  function start(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const w = new Worker(workerSource, { eval: true, workerData: { driver, file, sync } });
    w.unref();
    w.on('message', (result: { ok: boolean }) => (result.ok ? finish() : fallBack()));
    w.on('error', fallBack);
    w.on('exit', () => {
      exited = true;
      if (closing) finish();
      else fallBack();
    });
    return w;
  }

  /** A stuck worker: the node closes without it (its checkpoint, if any, ends with the process). */
  function giveUp(w: Worker) {
    fallBack();
    w.unref();
    void w.terminate();
  }

  /** Copies the whole WAL back and truncates it, unless another connection keeps it from it (a reader of an older
   * snapshot, such as a backup, or a checkpoint of its own): then it answers false at once. SQLite would wait for
   * them in the busy handler, the event loop with it, up to busy_timeout per try. */
  function tryPurge(late: boolean): boolean {
    db.exec('PRAGMA busy_timeout = 0');
    try {
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      purgePending = result?.busy === 1;
      if (purgePending) return false;
      try {
        onPurged(late || gaveUp);
        gaveUp = false;
      } catch {
        // Another process holds the write lock, or a disk error: the WAL is empty all the same.
        purgePending = true;
      }
      return true;
    } finally {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  function checkpoint() {
    if (running || !db.open) return;
    if (purgePending) {
      try {
        if (tryPurge(true)) return;
      } catch {
        // A disk error: the next tick tries again, and the worker's checkpoints go on meanwhile.
      }
    }
    if (failed) return;
    const changes = totalChanges.get()!;
    if (changes - checkpointedAt < afterChanges) return;
    checkpointedAt = changes;
    try {
      worker ??= start();
    } catch {
      fallBack();
      return;
    }
    running = new Promise<void>((resolve) => {
      finish = () => {
        running = undefined;
        resolve();
      };
    });
    worker.postMessage('checkpoint');
  }
  // A crash between an erasure's commit and its TRUNCATE left the erased text in the WAL, as does a node that
  // stopped while a reader kept it from being emptied.
  tryPurge(true);
  const timer = setInterval(checkpoint, everyMs);
  timer.unref();

  return {
    /**
     * Empties the WAL of what an erasure deleted: true once done. While another connection keeps it from it, it
     * tries again for `purgeWaitMs`, then answers false and the checkpoints go on trying, each second, until it
     * is done. A checkpoint of the worker's is waited for however long it takes: SQLite refuses a second
     * checkpointer rather than wait for it.
     */
    async purge(): Promise<boolean> {
      purgePending = true;
      const until = Date.now() + purgeWaitMs;
      for (;;) {
        while (running) await running;
        if (!db.open) return false;
        if (tryPurge(false)) return true;
        if (Date.now() >= until) {
          gaveUp = true;
          return false;
        }
        await new Promise((resolve) => setTimeout(resolve, PURGE_RETRY_MS));
      }
    },
    /** Stops checkpointing; the database closes after (its close checkpoints what is left). */
    async close(): Promise<void> {
      clearInterval(timer);
      closing = true;
      if (!worker || exited) return;
      const w = worker;
      // Unref'd, the worker keeps nothing alive: a node whose last open handle this close was would exit before the
      // worker did, and the database would never be closed (its WAL left behind, as after a crash).
      w.ref();
      let stuckTimer: NodeJS.Timeout | undefined;
      const stuck = new Promise<'stuck'>((resolve) => (stuckTimer = setTimeout(resolve, stuckMs, 'stuck')));
      const gone = new Promise<'gone'>((resolve) => w.once('exit', () => resolve('gone')));
      try {
        if (running && (await Promise.race([running, stuck])) === 'stuck') return giveUp(w);
        if (exited) return;
        w.postMessage('close');
        if ((await Promise.race([gone, stuck])) === 'stuck') giveUp(w);
      } finally {
        clearTimeout(stuckTimer);
      }
    },
  };
}
export type WalCheckpointer = ReturnType<typeof createWalCheckpointer>;
