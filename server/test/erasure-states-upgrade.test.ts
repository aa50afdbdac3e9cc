import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { migrationsTable } from '../src/store/schema-dialect.ts';
import { migrations } from '../src/store/schema.ts';
import { openPgStore } from '../src/store/postgres/pg-store.ts';
import { sqliteSchema } from '../src/store/sqlite/migrate.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import { pgDatabaseBeforeVersion } from './support/pg-before-version.ts';

// Version 31 gives each erasure a state: the erasures recorded before were complete when they were made.
const STATES = migrations.find((m) => m.name === 'when an erasure left no copy in the database files')!.version;
const recorded = `INSERT INTO erasures (channel_id, client_key, reason, actor, counts_json, created_at) VALUES
  (1, 'gone', 'request', 'admin token', '{"clients":1}', 1700000000000),
  (1, NULL, 'retention', 'retention', '{"chats":3}', 1700000500000)`;

const expected = [
  { clientKey: null, createdAt: 1700000500000, completedAt: 1700000500000 },
  { clientKey: 'gone', createdAt: 1700000000000, completedAt: 1700000000000 },
];

const engine = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return null;
});
afterAll(() => engine?.stop());

describe(`the erasure log upgraded to version ${STATES}`, () => {
  it('SQLite: the erasures recorded before are complete at their own time', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-erasure-states-'));
    try {
      const file = path.join(dir, 'db.sqlite');
      const before = new Database(file);
      before.exec(migrationsTable(sqliteSchema));
      for (const m of migrations.filter((m) => m.version < STATES)) {
        before.exec(m.sql(sqliteSchema));
        before.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)').run(m.version, m.name);
      }
      before.exec(recorded);
      before.close();
      const store = openSqliteStore({ path: file, sync: 'normal' });
      try {
        expect(await store.privacy.listErasures(10)).toMatchObject(expected);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!engine)('PostgreSQL: the erasures recorded before are complete at their own time', async () => {
    const url = await pgDatabaseBeforeVersion(engine!, 'erasure_states', STATES, (pool) => pool.query(recorded));
    const store = await openPgStore({ url });
    try {
      expect(await store.privacy.listErasures(10)).toMatchObject(expected);
    } finally {
      await store.close();
    }
  });
});
