import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialect } from './support/test-db.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// When a row is deleted, the database looks up the rows that still refer to it, once per row deleted. Without an
// index that starts with the referring column, each lookup reads the whole referring table: erasing a customer with
// 2,000 messages read every delivery ever made 2,000 times (74 s beside 200k deliveries on PostgreSQL). The
// service never deletes agents or bot providers (they are deactivated), so the keys to them need no index.
const NEVER_DELETED = new Set(['agents', 'bot_providers']);

interface ForeignKey {
  child: string;
  column: string;
  parent: string;
  indexed: boolean;
}

function sqliteForeignKeys(file: string): ForeignKey[] {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    return tables.flatMap((child) => {
      const leading = new Set(
        (db.pragma(`index_list(${child})`) as { name: string }[]).map(
          (index) => (db.pragma(`index_info(${index.name})`) as { seqno: number; name: string }[]).find((c) => c.seqno === 0)?.name,
        ),
      );
      // A rowid table's INTEGER PRIMARY KEY is the table itself, in key order.
      const rowid = (db.pragma(`table_info(${child})`) as { name: string; pk: number; type: string }[]).find(
        (c) => c.pk === 1 && c.type.toUpperCase() === 'INTEGER',
      )?.name;
      return (db.pragma(`foreign_key_list(${child})`) as { table: string; from: string }[]).map((fk) => ({
        child,
        column: fk.from,
        parent: fk.table,
        indexed: leading.has(fk.from) || fk.from === rowid,
      }));
    });
  } finally {
    db.close();
  }
}

async function postgresForeignKeys(url: string): Promise<ForeignKey[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<ForeignKey>(`
      SELECT con.conrelid::regclass::text AS child, a.attname AS column, con.confrelid::regclass::text AS parent,
        EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = con.conrelid AND i.indkey[0] = con.conkey[1]) AS indexed
      FROM pg_constraint con
      JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
      WHERE con.contype = 'f'`);
    return rows;
  } finally {
    await client.end();
  }
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.dispose());

describe('foreign keys', () => {
  it('every key to a table the service deletes from is found through an index of the referring column', async () => {
    const keys = testDialect === 'sqlite' ? sqliteForeignKeys(t.dbPath) : await postgresForeignKeys(t.dbPath);
    expect(keys.map((k) => `${k.child}.${k.column}`)).toContain('deliveries.message_id');
    const unindexed = keys.filter((k) => !k.indexed && !NEVER_DELETED.has(k.parent)).map((k) => `${k.child}.${k.column} -> ${k.parent}`);
    expect(unindexed).toEqual([]);
  });
});
