import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
});
