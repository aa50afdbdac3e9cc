import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDb, type Db } from '../src/store/sqlite/db.ts';
import { createWalSync } from '../src/store/sqlite/wal-sync.ts';
import { createWriteBatcher } from '../src/store/sqlite/write-batcher.ts';

// At synchronous=FULL the group commit syncs the WAL off the event loop (issue 16): a write must still be
// acknowledged only once the disk has it, and in the order the writes were committed.
let db: Db | undefined;
let dir: string | undefined;
afterEach(() => {
  vi.restoreAllMocks();
  db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** fs.fdatasync held: each call waits until the test lets it go through to the real one. */
function holdSyncs() {
  const real = fs.fdatasync;
  const held: (() => void)[] = [];
  vi.spyOn(fs, 'fdatasync').mockImplementation(
    ((fd: number, done: (err: NodeJS.ErrnoException | null) => void) => void held.push(() => real(fd, done))) as typeof fs.fdatasync,
  );
  return held;
}

function open() {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wal-sync-'));
  db = openDb({ path: path.join(dir, 'db.sqlite'), sync: 'full' });
  const walSync = createWalSync(db, 'full');
  const writes = createWriteBatcher(db, { walSync });
  const put = db.prepare("INSERT INTO settings (key, value) VALUES (?, 'v')");
  return { db, walSync, writes, put };
}

const ticks = (n = 5) => new Promise<void>((resolve) => setTimeout(resolve, n));

describe('group commit at synchronous=FULL', () => {
  it('answers a write only after the WAL it was committed to is synced', async () => {
    const held = holdSyncs();
    const { writes, put, walSync } = open();
    let answered = false;
    const write = writes.run(() => put.run('a').changes).then((changes) => ((answered = true), changes));
    await ticks();
    expect(held).toHaveLength(1); // committed, and its sync asked for
    expect(answered).toBe(false);
    held.shift()!();
    expect(await write).toBe(1);
    await walSync.close();
  });

  it('answers writes in the order they were committed, those committed during a sync sharing the next one', async () => {
    const held = holdSyncs();
    const { writes, put, walSync } = open();
    const order: string[] = [];
    const first = writes.run(() => put.run('a')).then(() => order.push('a'));
    await ticks();
    const second = writes.run(() => put.run('b')).then(() => order.push('b'));
    await ticks();
    const third = writes.run(() => put.run('c')).then(() => order.push('c'));
    await ticks();
    expect(held).toHaveLength(1); // b and c wait for the sync after a's
    held.shift()!();
    await first;
    await ticks();
    expect(order).toEqual(['a']);
    expect(held).toHaveLength(1);
    held.shift()!();
    await Promise.all([second, third]);
    expect(order).toEqual(['a', 'b', 'c']);
    await walSync.close();
  });

  it('keeps FULL for every other write of the connection', async () => {
    holdSyncs();
    const { db, writes, put } = open();
    void writes.run(() => put.run('a'));
    await ticks();
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('tells the writers when a sync failed, and refuses every later write until the node restarts', async () => {
    const real = fs.fdatasync;
    let fails = 1;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: (err: NodeJS.ErrnoException | null) => void) =>
      fails-- > 0
        ? void setImmediate(() => done(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' })))
        : real(fd, done)) as typeof fs.fdatasync);
    const { db, writes, put } = open();
    await expect(writes.run(() => put.run('a'))).rejects.toThrow('EIO');
    // The disk may have dropped what it could not write: a later write is not acknowledged on top of it.
    await expect(writes.run(() => put.run('b'))).rejects.toThrow('writes are refused until the node restarts');
    expect(db.prepare("SELECT key FROM settings WHERE key = 'b'").all()).toEqual([]);
  });

  it('syncs the WAL of the file a symlinked database path points to', async () => {
    const synced: number[] = [];
    const real = fs.fdatasync;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, done: (err: NodeJS.ErrnoException | null) => void) => {
      synced.push(fd);
      real(fd, done);
    }) as typeof fs.fdatasync);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-wal-sync-'));
    fs.mkdirSync(path.join(dir, 'real'));
    fs.mkdirSync(path.join(dir, 'link'));
    const target = path.join(dir, 'real', 'db.sqlite');
    fs.writeFileSync(target, '');
    fs.symlinkSync(target, path.join(dir, 'link', 'db.sqlite'));
    db = openDb({ path: path.join(dir, 'link', 'db.sqlite'), sync: 'full' });
    const walSync = createWalSync(db, 'full');
    const writes = createWriteBatcher(db, { walSync });
    await writes.run(() => db!.prepare("INSERT INTO settings (key, value) VALUES ('a', 'v')").run());
    expect(synced).toHaveLength(1);
    expect(fs.readlinkSync(`/proc/self/fd/${synced[0]}`)).toBe(`${fs.realpathSync(target)}-wal`);
    await walSync.close();
  });

  it('closes only after the syncs of writes committed while it waited', async () => {
    const held = holdSyncs();
    const { writes, put, walSync } = open();
    const first = writes.run(() => put.run('a'));
    await ticks();
    const closed = walSync.close();
    const second = writes.run(() => put.run('b'));
    await ticks();
    held.shift()!();
    await first;
    await ticks();
    held.shift()!();
    await expect(second).resolves.toBeDefined();
    await closed;
  });
});
