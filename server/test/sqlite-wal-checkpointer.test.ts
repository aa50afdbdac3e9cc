import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../src/store/sqlite/db.ts';
import { completePendingErasures, type ErasuresCompleted } from '../src/store/sqlite/privacy-repo.ts';
import { createWalCheckpointer, type WalCheckpointer } from '../src/store/sqlite/wal-checkpointer.ts';

// SQLite checkpoints inside the COMMIT that takes the WAL past 1,000 pages, syncing files while the whole node
// waits; a worker thread checkpoints instead (issue 16).
let db: Db | undefined;
let checkpointer: WalCheckpointer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await checkpointer?.close();
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function open(options: Parameters<typeof createWalCheckpointer>[2]) {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wal-checkpointer-'));
  db = openDb({ path: path.join(dir, 'db.sqlite'), sync: 'normal' });
  db.pragma('wal_checkpoint(TRUNCATE)'); // the schema into the file
  checkpointer = createWalCheckpointer(db, 'normal', options);
  return { db, checkpointer, file: path.join(dir, 'db.sqlite') };
}

/** The settings the database file holds by itself, without its WAL (what a checkpoint copied back). */
function settingsInFileAlone(file: string): number {
  const copy = `${file}-copy`;
  fs.copyFileSync(file, copy);
  const alone = new Database(copy, { readonly: true });
  try {
    return (alone.prepare("SELECT count(*) AS n FROM settings WHERE key LIKE 'k%'").get() as { n: number }).n;
  } finally {
    alone.close();
    for (const f of [copy, `${copy}-wal`, `${copy}-shm`]) fs.rmSync(f, { force: true });
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('WAL checkpoints off the event loop', () => {
  it('copies what was committed back into the database file once 2,000 rows were written, far below 1,000 pages', async () => {
    const { db, file } = open({ everyMs: 50 });
    const put = db.prepare("INSERT INTO settings (key, value) VALUES (?, 'v')");
    db.transaction(() => {
      for (let i = 0; i < 1999; i++) put.run(`k${i}`);
    })();
    await sleep(300);
    expect(settingsInFileAlone(file)).toBe(0); // not due yet: a quiet node is not synced every second
    put.run('k1999');
    for (let waited = 0; waited < 5000 && settingsInFileAlone(file) < 2000; waited += 50) await sleep(50);
    expect(settingsInFileAlone(file)).toBe(2000);
  });

  it('leaves the checkpoints of a WAL past 1,000 pages to the worker', async () => {
    const { db } = open({ everyMs: 60_000 });
    const put = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
    const page = 'x'.repeat(4000);
    db.transaction(() => {
      for (let i = 0; i < 1500; i++) put.run(`k${i}`, page);
    })();
    // A checkpoint of the node's own would have copied the WAL back, and the next write would start it over.
    put.run('after', 'v');
    const [wal] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(wal!.log).toBeGreaterThan(1500);
  });

  it('gives the checkpoints back to the node’s connection, at SQLite’s 1,000 pages, when the worker fails', async () => {
    const { db, file } = open({ everyMs: 20, afterChanges: 1 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(2000);
    // The worker opens the file when its first checkpoint is due: gone by then, it cannot.
    fs.renameSync(file, `${file}-moved`);
    db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run();
    for (let waited = 0; waited < 5000 && db.pragma('wal_autocheckpoint', { simple: true }) !== 1000; waited += 20) await sleep(20);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    fs.renameSync(`${file}-moved`, file);
  });

  it('closes the database when closing is all a process has left to do, the worker thread having checkpointed', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wal-checkpointer-'));
    const file = path.join(dir, 'db.sqlite');
    // As a stopping node: its server and timers gone, closing the store is the last thing that keeps it running.
    const script = `
      import { openDb } from './src/store/sqlite/db.ts';
      import { createWalCheckpointer } from './src/store/sqlite/wal-checkpointer.ts';
      const db = openDb({ path: ${JSON.stringify(file)}, sync: 'normal' });
      const checkpointer = createWalCheckpointer(db, 'normal', { everyMs: 10, afterChanges: 1 });
      db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await checkpointer.close();
      db.close();
      console.log('closed');
    `;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '..'),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(child.stdout.trim()).toBe('closed');
    expect(child.status).toBe(0);
    // SQLite removes the WAL when its last connection closes.
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('lets a checkpoint of the node’s own (an erasure’s TRUNCATE) run only once the worker’s is done', async () => {
    const { db, checkpointer, file } = open({ everyMs: 20, afterChanges: 1 });
    const put = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?)');
    const page = 'x'.repeat(4000);
    for (let round = 0; round < 20; round++) {
      db.transaction(() => {
        for (let i = 0; i < 300; i++) put.run(`k${round}-${i}`, page);
      })();
      await sleep(21);
      expect(await checkpointer.purge()).toBe(true);
      expect(fs.statSync(`${file}-wal`).size).toBe(0);
    }
  });

  it('empties the WAL for an erasure without holding the event loop while a reader keeps it from it, and once the reader is done', async () => {
    const { db, checkpointer, file } = open({ everyMs: 50, purgeWaitMs: 500 });
    db.prepare("INSERT INTO settings (key, value) VALUES ('before', 'v')").run();
    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM settings').get();
    db.prepare("INSERT INTO settings (key, value) VALUES ('erased', 'secret')").run();
    let last = Date.now();
    let longestGap = 0;
    const ticks = setInterval(() => {
      longestGap = Math.max(longestGap, Date.now() - last);
      last = Date.now();
    }, 10);
    try {
      // SQLite's busy handler would have waited busy_timeout (5 s) per try with the event loop
      expect(await checkpointer.purge()).toBe(false);
      longestGap = Math.max(longestGap, Date.now() - last);
    } finally {
      clearInterval(ticks);
    }
    expect(longestGap).toBeLessThan(1000);
    expect(fs.readFileSync(`${file}-wal`).includes('secret')).toBe(true);
    reader.exec('COMMIT');
    reader.close();
    for (let waited = 0; waited < 5000 && fs.statSync(`${file}-wal`).size > 0; waited += 50) await sleep(50);
    expect(fs.statSync(`${file}-wal`).size).toBe(0);
  });

  it('records the erasures pending while a reader held the WAL as complete together once it lets go, and at the next start, and tells the node (its log line)', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wal-checkpointer-'));
    const file = path.join(dir, 'db.sqlite');
    const completed: ErasuresCompleted[] = [];
    const start = () => {
      db = openDb({ path: file, sync: 'normal' });
      const onPurged = completePendingErasures(db, (c) => completed.push(c));
      checkpointer = createWalCheckpointer(db, 'normal', { everyMs: 50, purgeWaitMs: 200, onPurged });
      return { db, checkpointer };
    };
    let node = start();
    const erasure = (key: string, at: number) =>
      node.db
        .prepare(
          "INSERT INTO erasures (channel_id, client_key, reason, actor, counts_json, created_at) VALUES (1, ?, 'request', 'admin token', '{}', ?)",
        )
        .run(key, at);
    const completedAt = (key: string) =>
      node.db.prepare<[string], number | null>('SELECT completed_at FROM erasures WHERE client_key = ?').pluck().get(key);

    erasure('alone', 1000);
    expect(await node.checkpointer.purge()).toBe(true);
    expect(completedAt('alone')).toBeGreaterThan(1000);
    expect(completed).toEqual([]); // complete at once: nothing to tell

    const reader = new Database(file, { readonly: true });
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM erasures').get();
    erasure('first', 2000);
    expect(await node.checkpointer.purge()).toBe(false);
    erasure('second', 3000);
    expect(await node.checkpointer.purge()).toBe(false);
    await sleep(150); // ticks while the reader holds on
    expect([completedAt('first'), completedAt('second')]).toEqual([null, null]);
    const releasedAt = Date.now();
    reader.exec('COMMIT');
    reader.close();
    for (let waited = 0; waited < 5000 && completed.length === 0; waited += 20) await sleep(20);
    expect(completed).toEqual([{ count: 2, pendingSince: 2000 }]);
    expect(completedAt('first')).toBeGreaterThanOrEqual(releasedAt);
    expect(completedAt('second')).toBe(completedAt('first'));

    // one left pending when the node stopped (a crash, or a reader that held on through the stop)
    node.db.prepare('UPDATE erasures SET completed_at = NULL WHERE client_key = ?').run('second');
    await node.checkpointer.close();
    node.db.close();
    node = start();
    expect(completed).toEqual([
      { count: 2, pendingSince: 2000 },
      { count: 1, pendingSince: 3000 },
    ]);
    expect(completedAt('second')).not.toBeNull();
  });

  it('empties a WAL a crash left behind (an erasure’s text in it) when the node starts', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wal-checkpointer-'));
    const file = path.join(dir, 'db.sqlite');
    const script = `
      const Database = require('better-sqlite3');
      const db = new Database(${JSON.stringify(file)});
      db.pragma('journal_mode = WAL');
      db.exec("CREATE TABLE t (x); INSERT INTO t VALUES ('erased-before-crash'); DELETE FROM t");
      process.exit(0); // no close: the WAL stays as it was
    `;
    const child = spawnSync(process.execPath, ['-e', script], { cwd: path.resolve(import.meta.dirname, '..'), encoding: 'utf8' });
    expect(child.status).toBe(0);
    expect(fs.readFileSync(`${file}-wal`).includes('erased-before-crash')).toBe(true);
    db = new Database(file);
    checkpointer = createWalCheckpointer(db, 'normal');
    expect(fs.statSync(`${file}-wal`).size).toBe(0);
  });

  it('closes without a worker whose checkpoint never ends (a disk that stopped answering), back to SQLite’s checkpoints', async () => {
    // stands in for a checkpoint stuck in its file sync: it never answers
    const workerSource = "require('node:worker_threads').parentPort.on('message', () => {});";
    const { db, checkpointer } = open({ everyMs: 20, afterChanges: 1, stuckMs: 300, workerSource });
    db.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run();
    await sleep(100); // the worker's checkpoint is under way
    const started = Date.now();
    await checkpointer.close();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});
