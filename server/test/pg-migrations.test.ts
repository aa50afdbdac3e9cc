import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { openDb } from '../src/store/sqlite/db.ts';
import { openPgDb, type PgDb } from '../src/store/postgres/pg-db.ts';
import { migratePg } from '../src/store/postgres/migrate.ts';
import { migrations } from '../src/store/schema.ts';

const server = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return null;
});

type Schema = Record<string, string[]>;

// The search index is each dialect's own (SchemaDialect.searchIndexes): SQLite's FTS5 tables with their shadow
// tables, PostgreSQL's GIN indexes. Both are compared by what they find (search.test.ts), not by their shape.
// So is what keeps erased ids from coming back (SchemaDialect.retiredIds): a table SQLite needs and PostgreSQL's
// identities do not (privacy.test.ts checks the ids on both).
const isSqliteOnlyTable = (name: string) => /^(messages|clients)_search(_|$)/.test(name) || name === 'retired_ids';
const isPostgresSearchIndex = (name: string) => /^(messages|clients)_search$/.test(name);

// PostgreSQL keeps what every message changes in a chat in a table of its own (SchemaDialect.chatActivityApart,
// version 30), with the two indexes that order by it; SQLite keeps them in `chats`. Folded back into `chats`, the
// schemas are compared as one. The table's own shape is checked below.
const activityColumns = ['last_activity_at', 'last_message_id'];
function withActivityInChats(schema: Schema): Schema {
  const { chat_activity: activity, ...rest } = schema;
  expect(activity).toEqual(['channel_id', 'id', ...activityColumns, 'state']);
  return { ...rest, chats: [...rest['chats']!, ...activityColumns].sort() };
}
function withActivityIndexesInChats(keys: Keys): Keys {
  const { chat_activity: activity, ...rest } = keys;
  expect(activity?.primaryKey).toEqual(['id']);
  const chats = rest['chats']!;
  const moved = activity!.indexes.map((index) => index.replace(/^chat_activity_/, 'chats_'));
  return { ...rest, chats: { ...chats, indexes: [...chats.indexes, ...moved].sort() } };
}

/** Every table of a fresh SQLite file with its column names, sorted. */
function sqliteSchema(): Schema {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-schema-'));
  const db = openDb({ path: path.join(dir, 'svc.sqlite'), sync: 'off' });
  try {
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]
    ).filter((name) => !isSqliteOnlyTable(name));
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

/** Per table: the primary key's columns, and every other index as its columns (an index made by a UNIQUE
 * constraint is named by each dialect its own way, so only its columns count; a created index keeps its name). */
type Keys = Record<string, { primaryKey: string[]; indexes: string[] }>;

const describeIndex = (index: { name: string | null; unique: boolean; partial: boolean; columns: string[] }) =>
  `${index.name ?? '(constraint)'}: ${index.unique ? 'UNIQUE ' : ''}(${index.columns.join(', ')})${index.partial ? ' WHERE ...' : ''}`;

function sqliteKeys(): Keys {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-schema-'));
  const db = openDb({ path: path.join(dir, 'svc.sqlite'), sync: 'off' });
  try {
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]
    ).filter((name) => !isSqliteOnlyTable(name));
    const keys: Keys = {};
    for (const table of tables) {
      const columns = db.pragma(`table_info(${table})`) as { name: string; pk: number }[];
      const indexList = db.pragma(`index_list(${table})`) as { name: string; unique: number; origin: string; partial: number }[];
      keys[table] = {
        primaryKey: columns
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
        indexes: indexList
          .filter((i) => i.origin !== 'pk')
          .map((i) =>
            describeIndex({
              name: i.origin === 'c' ? i.name : null,
              unique: i.unique === 1,
              partial: i.partial === 1,
              columns: (db.pragma(`index_info(${i.name})`) as { seqno: number; name: string | null }[])
                .sort((a, b) => a.seqno - b.seqno)
                .map((c) => c.name ?? '(expression)'),
            }),
          )
          .sort(),
      };
    }
    return keys;
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresKeys(db: PgDb): Promise<Keys> {
  const tables = await db.all<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const rows = await db.all<{
    table_name: string;
    index_name: string;
    primary: boolean;
    unique: boolean;
    partial: boolean;
    constraint: boolean;
    columns: string[];
  }>(
    `SELECT t.relname AS table_name, i.relname AS index_name, x.indisprimary AS primary, x.indisunique AS unique,
       x.indpred IS NOT NULL AS partial, EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) AS constraint,
       ARRAY(SELECT COALESCE(a.attname::text, '(expression)') FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
             LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n) AS columns
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace ns ON ns.oid = t.relnamespace WHERE ns.nspname = 'public'`,
  );
  const keys: Keys = Object.fromEntries(tables.map((t) => [t.table_name, { primaryKey: [], indexes: [] }]));
  for (const r of rows.filter((row) => !isPostgresSearchIndex(row.index_name))) {
    const table = keys[r.table_name]!;
    if (r.primary) table.primaryKey = r.columns;
    else
      table.indexes.push(
        describeIndex({ name: r.constraint ? null : r.index_name, unique: r.unique, partial: r.partial, columns: r.columns }),
      );
  }
  for (const table of Object.values(keys)) table.indexes.sort();
  return keys;
}

const sorted = <T>(schema: Record<string, T>) => Object.fromEntries(Object.entries(schema).sort(([a], [b]) => a.localeCompare(b)));

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
      // every version of the list, in its order, and the list numbered 1..n without a gap
      expect(versions).toEqual(migrations.map((m) => m.version));
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
    expect(ran).toEqual(migrations.map((m) => m.version));
  });

  it('builds the same tables and columns as the SQLite schema', async () => {
    const db = await openPgDb({ url: server!.createDatabase('schema'), poolSize: 1 });
    opened.push(db);
    expect(sorted(withActivityInChats(await postgresSchema(db)))).toEqual(sorted(sqliteSchema()));
  });

  it('builds the same primary keys and indexes as the SQLite schema', async () => {
    const db = await openPgDb({ url: server!.createDatabase('keys'), poolSize: 1 });
    opened.push(db);
    const sqlite = sqliteKeys();
    expect(sqlite['chats']?.indexes).toContain('one_live_chat_per_client: UNIQUE (client_id) WHERE ...');
    expect(sorted(withActivityIndexesInChats(await postgresKeys(db)))).toEqual(sorted(sqlite));
  });
});
