import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { openDb } from '../src/store/sqlite/db.ts';
import { openPgDb, type PgDb } from '../src/store/postgres/pg-db.ts';
import { migratePg } from '../src/store/postgres/migrate.ts';

const server = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return null;
});

type Schema = Record<string, string[]>;

/** Every table of a fresh SQLite file with its column names, sorted. */
function sqliteSchema(): Schema {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-schema-'));
  const db = openDb({ path: path.join(dir, 'svc.sqlite'), sync: 'off' });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    return Object.fromEntries(
      tables.map((table) => [table, (db.pragma(`table_info(${table})`) as { name: string }[]).map((c) => c.name).sort()]),
    );
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresSchema(db: PgDb): Promise<Schema> {
  const rows = await db.all<{ table_name: string; column_name: string }>(
    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name",
  );
  const schema: Schema = {};
  for (const r of rows) (schema[r.table_name] ??= []).push(r.column_name);
  for (const columns of Object.values(schema)) columns.sort();
  return schema;
}

const sorted = (schema: Schema) => Object.fromEntries(Object.entries(schema).sort(([a], [b]) => a.localeCompare(b)));

describe.skipIf(!server)('PostgreSQL migrations', () => {
  const opened: PgDb[] = [];
  const pools: pg.Pool[] = [];

  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await Promise.all(pools.map((pool) => pool.end()));
    server?.stop();
  });

  describe('when four nodes start together on an empty database', () => {
    let url: string;
    let applied: { version: number; applied_at: number }[];

    it('all open, and each version is applied once', async () => {
      url = server!.createDatabase('four_nodes');
      const nodes = await Promise.all([1, 2, 3, 4].map(() => openPgDb({ url, poolSize: 2 })));
      opened.push(...nodes);
      applied = await nodes[0]!.all('SELECT version, applied_at FROM schema_migrations ORDER BY version');
      const versions = applied.map((m) => m.version);
      expect(versions.length).toBeGreaterThan(0);
      expect(versions).toEqual([...new Set(versions)]);
      expect(versions).toEqual(versions.map((_, i) => i + 1));
    });

    it('a node that opens later runs nothing', async () => {
      const later = await openPgDb({ url, poolSize: 1 });
      opened.push(later);
      expect(await later.all('SELECT version, applied_at FROM schema_migrations ORDER BY version')).toEqual(applied);
      expect(await migratePg(later.pool)).toEqual([]);
    });
  });

  it('of four nodes migrating at once, each version is run by exactly one', async () => {
    const url = server!.createDatabase('four_migrators');
    const four = [1, 2, 3, 4].map(() => new pg.Pool({ connectionString: url, max: 1 }));
    pools.push(...four);
    const ran = (await Promise.all(four.map((pool) => migratePg(pool)))).flat().sort((a, b) => a - b);
    expect(ran).toEqual(ran.map((_, i) => i + 1));
  });

  it('builds the same tables and columns as the SQLite schema', async () => {
    const db = await openPgDb({ url: server!.createDatabase('schema'), poolSize: 1 });
    opened.push(db);
    expect(sorted(await postgresSchema(db))).toEqual(sorted(sqliteSchema()));
  });
});
