import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';

// SQLite only: the PostgreSQL pass of the suite leaves sqlite-*.test.ts out, as the SQLite pass runs
// pg-migrations.test.ts (several nodes migrating one database at once) for PostgreSQL.
let t: TestServer | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

describe('SQLite migrations', () => {
  it('runs each migration once: a second start changes nothing in the schema', async () => {
    t = await startTestServer();
    await t.stop();
    const schema = () => {
      const db = new Database(t!.dbPath, { readonly: true });
      try {
        return {
          versions: db.prepare('SELECT version FROM schema_migrations').pluck().all(),
          tables: db.prepare("SELECT sql FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name").pluck().all(),
          journal: db.pragma('journal_mode', { simple: true }),
        };
      } finally {
        db.close();
      }
    };
    const before = schema();
    t = await t.restart();
    await t.stop();
    expect(schema()).toEqual(before);
    expect(before.journal).toBe('wal');
  });
});
