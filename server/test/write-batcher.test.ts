import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../src/store/sqlite/db.ts';
import { createWriteBatcher } from '../src/store/sqlite/write-batcher.ts';

let db: Db | undefined;
let dir: string | undefined;
afterEach(() => {
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('group commit', () => {
  it('commits writes of one tick together, and a failing write undoes only itself', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-batch-'));
    db = openDb({ path: path.join(dir, 'db.sqlite'), sync: 'full' });
    const writes = createWriteBatcher(db);
    const put = db.prepare("INSERT INTO settings (key, value) VALUES (?, 'v')");
    const results = await Promise.allSettled([
      writes.run(() => put.run('a').changes),
      writes.run(() => {
        put.run('b');
        throw new Error('boom');
      }),
      writes.run(() => put.run('c').changes),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT key FROM settings ORDER BY key').pluck().all()).toEqual(['a', 'c']);
  });

  it('undoes a batch with a failing write, waits when another connection takes the lock before the batch runs again, then stores the others', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-batch-'));
    const file = path.join(dir, 'db.sqlite');
    db = openDb({ path: file, sync: 'full' });
    const other = new Database(file);
    // The moment between undoing the batch's first run and beginning again: a tool takes the write lock there.
    const exec = db.exec.bind(db);
    let taken = false;
    db.exec = (sql: string) => {
      exec(sql);
      if (sql === 'ROLLBACK' && !taken) {
        taken = true;
        other.exec('BEGIN IMMEDIATE');
        setTimeout(() => other.exec('COMMIT'), 50);
      }
      return db!;
    };
    const writes = createWriteBatcher(db);
    const put = db.prepare("INSERT INTO settings (key, value) VALUES (?, 'v')");
    const runs: string[] = [];
    const results = await Promise.allSettled([
      writes.run(() => (runs.push('a'), put.run('a').changes)),
      writes.run(() => {
        runs.push('b');
        put.run('b');
        throw new Error('boom');
      }),
      writes.run(() => (runs.push('c'), put.run('c').changes)),
    ]);
    other.close();
    expect(taken).toBe(true);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT key FROM settings ORDER BY key').pluck().all()).toEqual(['a', 'c']);
    // Run together once (undone), then once each after the lock was free again: never twice on top of each other.
    expect(runs).toEqual(['a', 'b', 'a', 'b', 'c']);
  });

  it('fails every write of a batch whose transaction an error ended (a full disk), and stores none of them', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-batch-'));
    db = openDb({ path: path.join(dir, 'db.sqlite'), sync: 'full' });
    const writes = createWriteBatcher(db);
    const put = db.prepare("INSERT INTO settings (key, value) VALUES (?, 'v')");
    const open = db;
    const results = await Promise.allSettled([
      writes.run(() => put.run('a').changes),
      writes.run(() => {
        // what SQLITE_FULL does to the transaction
        open.exec('ROLLBACK');
        throw new Error('database or disk is full');
      }),
      writes.run(() => put.run('c').changes),
    ]);
    // none is reported stored, and none is: a caller told "failed" may send it again
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(db.prepare('SELECT key FROM settings ORDER BY key').pluck().all()).toEqual([]);
    expect(await writes.run(() => put.run('d').changes)).toBe(1);
  });

  it('waits for a write lock another connection holds without stopping the event loop, counting the writes that wait', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-batch-'));
    const file = path.join(dir, 'db.sqlite');
    db = openDb({ path: file, sync: 'full' });
    const writes = createWriteBatcher(db);
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    const put = db.prepare("INSERT INTO settings (key, value) VALUES (?, 'v')");
    const written = [writes.run(() => put.run('a').changes), writes.run(() => put.run('b').changes)];
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 10);
    try {
      await new Promise((r) => setTimeout(r, 300));
      // SQLite's own busy wait would have held the loop for 5 s: no tick at all.
      expect(ticks).toBeGreaterThanOrEqual(3);
      expect(writes.backlog()).toBe(2);
    } finally {
      clearInterval(ticking);
      other.exec('COMMIT');
      other.close();
    }
    expect(await Promise.all(written)).toEqual([1, 1]);
    expect(writes.backlog()).toBe(0);
    expect(db.prepare('SELECT key FROM settings ORDER BY key').pluck().all()).toEqual(['a', 'b']);
  });
});
