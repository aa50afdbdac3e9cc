import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { migrationsTable } from '../src/store/schema-dialect.ts';
import { migrations } from '../src/store/schema.ts';
import { openDb } from '../src/store/sqlite/db.ts';
import { sqliteSchema } from '../src/store/sqlite/migrate.ts';
import { createMessageSearchIndex } from '../src/store/sqlite/message-search-index.ts';
import { createSearchRepo } from '../src/store/sqlite/search-repo.ts';
import { createWriteBatcher } from '../src/store/sqlite/write-batcher.ts';
import { openPgDb } from '../src/store/postgres/pg-db.ts';
import { createPgSearchRepo } from '../src/store/postgres/search-repo.ts';
import { pgDatabaseBeforeVersion } from './support/pg-before-version.ts';

// A database from before search existed: what the migration that adds the index finds and must index.
const SEARCH_VERSION = migrations.find((m) => m.name === 'search over messages and clients')!.version;
const before = migrations.filter((m) => m.version < SEARCH_VERSION);

const rows = [
  `INSERT INTO agents (id, name, email, password_hash, created_at) VALUES (1, 'Ann', 'ann@example.com', 'x', 0)`,
  `INSERT INTO channels (id, public_id, kind, name, random_string, signing_secret, created_at) VALUES (1, 'c1', 'chat_api', 'Shop', 'r', 's', 0)`,
  `INSERT INTO channel_agents (channel_id, agent_id) VALUES (1, 1)`,
  `INSERT INTO clients (id, channel_id, external_key, external_id_json, name, email, created_at, updated_at)
     VALUES (1, 1, 'k', '"k"', 'Zoë Quist', 'zoe@beispiel.example', 0, 0)`,
  `INSERT INTO chats (id, channel_id, client_id, state, created_at, last_message_id) VALUES (1, 1, 1, 'open', 0, 1)`,
  `INSERT INTO messages (id, chat_id, author, type, text, delivery, created_at) VALUES (1, 1, 'client', 'text', 'Wo ist mein Müsli?', 'delivered', 5)`,
];

const pgServer = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return null;
});
afterAll(() => pgServer?.stop());

describe('the migration that adds search', () => {
  it('on SQLite, indexes the messages and clients that were there before it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-search-'));
    const file = path.join(dir, 'svc.sqlite');
    const old = new Database(file);
    old.exec(migrationsTable(sqliteSchema));
    for (const m of before) {
      old.exec(m.sql(sqliteSchema));
      old.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)').run(m.version, m.name);
    }
    for (const sql of rows) old.exec(sql);
    old.close();

    const db = openDb({ path: file, sync: 'off' });
    try {
      const index = createMessageSearchIndex(db);
      const search = createSearchRepo(db, createWriteBatcher(db, { beforeCommit: index.catchUp }), index);
      expect(await search.search(1, ['musli'], 10)).toMatchObject([{ match: 'message', chatId: 1, messageId: 1, createdAt: 5 }]);
      expect(await search.search(1, ['zoe', 'beispiel'], 10)).toMatchObject([
        { match: 'client', chatId: 1, text: 'Zoë Quist · zoe@beispiel.example' },
      ]);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!pgServer)('on PostgreSQL, indexes the messages and clients that were there before it', async () => {
    const url = await pgDatabaseBeforeVersion(pgServer!, 'search_existing', SEARCH_VERSION, async (pool) => {
      for (const sql of rows) await pool.query(sql);
    });

    const db = await openPgDb({ url, poolSize: 1 });
    try {
      const search = createPgSearchRepo(db);
      expect(await search.search(1, ['musli'], 10)).toMatchObject([{ match: 'message', chatId: 1, messageId: 1, createdAt: 5 }]);
      expect(await search.search(1, ['zoe', 'beispiel'], 10)).toMatchObject([
        { match: 'client', chatId: 1, text: 'Zoë Quist · zoe@beispiel.example' },
      ]);
    } finally {
      await db.close();
    }
  });
});
