import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';

// The outbox's queries read pending rows only: they must find them through an index of the pending rows, not walk
// the table, which keeps every delivery ever sent (a full scan took 144-182 ms a claim at 300k rows, in the write
// transaction). SQLite picks a plan without statistics (the service never runs ANALYZE), so the plan of an empty
// database is the plan at any size.
const prepared: string[] = [];
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (this: Database.Database, source: string) {
  prepared.push(source);
  return prepare.call(this, source);
} as typeof prepare;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  Database.prototype.prepare = prepare;
});
afterAll(() => t.dispose());

/** The plan's steps of `sql`, every parameter bound to null. */
function planOf(db: Database.Database, sql: string): string[] {
  const named = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!))];
  const positional = (sql.match(/\?/g) ?? []).length;
  const statement = db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`);
  const rows =
    named.length > 0 ? statement.all(Object.fromEntries(named.map((n) => [n, null]))) : statement.all(...Array(positional).fill(null));
  return rows.map((row) => row.detail);
}

describe('SQLite outbox query plans', () => {
  it('reads pending deliveries through the pending rows only, never across every delivery ever sent', () => {
    const outbox = [...new Set(prepared)].filter(
      (sql) => /\bdeliveries\b/.test(sql) && /state = 'pending'/.test(sql) && /^\s*(SELECT|WITH)/i.test(sql),
    );
    expect(outbox.length).toBeGreaterThanOrEqual(5);
    const db = new Database(t.dbPath, { readonly: true });
    try {
      const walks = outbox.flatMap((sql) =>
        planOf(db, sql)
          .filter((step) => /^SCAN (deliveries|d|e)\b/.test(step) && !/INDEX deliveries_pending_/.test(step))
          .map((step) => `${step}  <-  ${sql.replace(/\s+/g, ' ').slice(0, 120)}`),
      );
      expect(walks).toEqual([]);
    } finally {
      db.close();
    }
  });
});
