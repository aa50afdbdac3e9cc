import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { migrations } from '../src/store/schema.ts';
import { openPgDb } from '../src/store/postgres/pg-db.ts';
import { createPgSearchRepo } from '../src/store/postgres/search-repo.ts';
import { pgDatabaseBeforeVersion } from './support/pg-before-version.ts';

// Issue 16: version 24 makes each message cost PostgreSQL less work. A database that has messages at version 23
// upgrades with its data as it was, and finds, folds and counts exactly as before.
const LIGHTER = migrations.find((m) => m.name === 'less database work per message')!.version;

const engine = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return null;
});
afterAll(() => engine?.stop());

// Case of several scripts, Latin diacritics, punctuation between words, an e-mail address: what search_words folds.
const texts = [
  'Wo ist mein Müsli?',
  'ÀÉÎÕÜ çédille — Straße',
  'ΓΕΙΑ σας, ПРИВЕТ мир',
  'anna@example.com wrote: order #12-345 (urgent!)',
  '',
];

async function databaseAtVersion23(name: string): Promise<string> {
  return pgDatabaseBeforeVersion(engine!, name, LIGHTER, async (pool) => {
    await pool.query(`
    INSERT INTO agents (id, name, email, password_hash, created_at) VALUES (1, 'Ann', 'ann@example.com', 'x', 0);
    INSERT INTO channels (id, public_id, kind, name, random_string, signing_secret, created_at) VALUES (1, 'c1', 'chat_api', 'Shop', 'r', 's', 0);
    INSERT INTO channel_agents (channel_id, agent_id) VALUES (1, 1);
    INSERT INTO clients (id, channel_id, external_key, external_id_json, created_at, updated_at) VALUES (1, 1, 'k', '"k"', 0, 0);
    INSERT INTO chats (id, channel_id, client_id, state, created_at) VALUES (1, 1, 1, 'open', 0);`);
    for (const [i, text] of texts.entries())
      await pool.query(
        `INSERT INTO messages (chat_id, author, agent_id, type, text, delivery, created_at) VALUES (1, $1, $2, 'text', $3, 'delivered', $4)`,
        [i % 2 === 0 ? 'client' : 'agent', i % 2 === 0 ? null : 1, text, 1000 * (i + 1)],
      );
  });
}

/** What PostgreSQL answers to a message of an unknown author or delivery state and a delivery of an unknown state
 * (rolled back), and to a valid message ('stored'). */
async function badRows(pool: pg.Pool): Promise<string[]> {
  const attempts = [
    `INSERT INTO messages (chat_id, author, type, text, delivery, created_at) VALUES (1, 'robot', 'text', 'x', 'delivered', 1)`,
    `INSERT INTO messages (chat_id, author, type, text, delivery, created_at) VALUES (1, 'client', 'text', 'x', 'lost', 1)`,
    `INSERT INTO deliveries (kind, channel_id, ordering_key, event_id, url, payload_json, state, max_attempts, next_attempt_at, created_at)
       VALUES ('k', 1, 'o', 'e', 'http://127.0.0.1:9/', '{}', 'sent', 1, 0, 0)`,
    `INSERT INTO messages (chat_id, author, type, text, delivery, created_at) VALUES (1, 'bot', 'text', 'x', 'failed', 1)`,
  ];
  const answers: string[] = [];
  const client = await pool.connect();
  try {
    for (const sql of attempts) {
      await client.query('BEGIN');
      answers.push(
        await client.query(sql).then(
          () => 'stored',
          (error: { code?: string }) => String(error.code),
        ),
      );
      await client.query('ROLLBACK');
    }
  } finally {
    client.release();
  }
  return answers;
}

const folded = async (sql: { all<T>(sql: string, params?: unknown[]): Promise<T[]> }) =>
  (await sql.all<{ words: string }>('SELECT search_words(t) AS words FROM unnest($1::text[]) AS t', [texts])).map((r) => r.words);

const matching = `SELECT id FROM messages WHERE to_tsvector('simple', search_words(COALESCE(text, ''))) @@ to_tsquery('simple', search_words($1)) ORDER BY id`;
type Db = Awaited<ReturnType<typeof openPgDb>>;
/** The ids the GIN index names (a plan that can only read it), and those found by folding every row again. */
const matchedThroughIndex = (db: Db) => (word: string) =>
  db.tx(async (sql) => {
    await sql.run('SET LOCAL enable_seqscan = off');
    return sql.all(matching, [word]);
  });
const matchedByScan = (db: Db) => (word: string) =>
  db.tx(async (sql) => {
    await sql.run('SET LOCAL enable_bitmapscan = off');
    await sql.run('SET LOCAL enable_indexscan = off');
    return sql.all(matching, [word]);
  });

describe.skipIf(!engine)('PostgreSQL version 24: less work per message, the same answers', () => {
  it('a database at version 23 upgrades with its messages, folds words as before and finds the same messages', async () => {
    const url = await databaseAtVersion23('lighter_upgrade');
    const old = new pg.Pool({ connectionString: url, max: 1 });
    const foldedBefore = await folded({ all: async (sql, params) => (await old.query(sql, params)).rows });
    const rowsBefore = (await old.query('SELECT * FROM messages ORDER BY id')).rows;
    const files =
      "SELECT relname, pg_relation_filenode(oid::regclass) AS file FROM pg_class WHERE relname IN ('messages', 'deliveries', 'messages_search') ORDER BY relname";
    const filesBefore = (await old.query(files)).rows;
    const refusedBefore = await badRows(old);
    await old.end();

    const db = await openPgDb({ url, poolSize: 2 });
    try {
      expect(await db.all('SELECT version FROM schema_migrations WHERE version = $1', [LIGHTER])).toHaveLength(1);
      expect(await db.all('SELECT * FROM messages ORDER BY id')).toEqual(rowsBefore);
      // Nothing was rewritten (a large table would have been locked for as long), and the same values are refused.
      expect(await db.all(files)).toEqual(filesBefore);
      expect(await badRows(db.pool)).toEqual(refusedBefore);
      expect(refusedBefore).toEqual(['23514', '23514', '23514', 'stored']);
      expect(await folded(db)).toEqual(foldedBefore);
      expect(foldedBefore.slice(0, 2)).toEqual(['wo ist mein musli ', 'aeiou cedille   strasse']);
      const search = createPgSearchRepo(db);
      expect(await search.search(1, ['MUSLI'], 10)).toMatchObject([{ match: 'message', chatId: 1, messageId: 1 }]);
      expect(await search.search(1, ['привет', 'γεια'], 10)).toMatchObject([{ match: 'message', messageId: 3 }]);
      expect(await search.search(1, ['anna', 'example'], 10)).toMatchObject([{ match: 'message', messageId: 4 }]);
      // The index built before the upgrade still answers: its entries are the ones the new function computes.
      for (const word of ['musli', 'strasse', 'привет', 'anna', 'urgent'])
        expect(await matchedThroughIndex(db)(word)).toEqual(await matchedByScan(db)(word));
      // A message stored after the upgrade is found the same way.
      const stored = await db.value<number>(
        `INSERT INTO messages (chat_id, author, type, text, delivery, created_at) VALUES (1, 'client', 'text', 'Crème BRÛLÉE', 'delivered', 9000) RETURNING id`,
      );
      expect(await search.search(1, ['creme', 'brulee'], 10)).toMatchObject([{ match: 'message', messageId: stored }]);
      expect(
        await db.value('SELECT l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = $1::regprocedure', [
          'search_words(text)',
        ]),
      ).toBe('plpgsql');
    } finally {
      await db.close();
    }
  });

  it('a message of every kind, and chats closing and rated, write the same report facts and rollups as at version 23', async () => {
    const [oldUrl, newUrl] = [await databaseAtVersion23('facts_v23'), await databaseAtVersion23('facts_v24')];
    const upgraded = await openPgDb({ url: newUrl, poolSize: 1 });
    await upgraded.close();
    const facts = async (url: string) => {
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        await pool.query(`
          INSERT INTO agents (id, name, email, password_hash, created_at) VALUES (2, 'Bo', 'bo@example.com', 'x', 0);
          INSERT INTO clients (id, channel_id, external_key, external_id_json, created_at, updated_at) VALUES (2, 1, 'k2', '"k2"', 0, 0);
          INSERT INTO chats (id, channel_id, client_id, state, created_at) VALUES (2, 1, 2, 'open', 100000);`);
        const messages: [string, number | null, number][] = [
          ['system', null, 0],
          ['bot', null, 0],
          ['agent', 1, 1], // a private note: no answer
          ['client', null, 0],
          ['client', null, 0],
          ['agent', 2, 0],
          ['agent', 2, 0],
          ['agent', 1, 0],
          ['agent', null, 0],
        ];
        for (const [i, [author, agentId, internal]] of messages.entries())
          await pool.query(
            `INSERT INTO messages (chat_id, author, agent_id, type, text, delivery, created_at, internal) VALUES (2, $1, $2, 'text', 'x', 'delivered', $3, $4)`,
            [author, agentId, 100000 + 61000 * i, internal],
          );
        // Chats closing (one missed: never answered), rated, moved to another hour: what moves the hour counts.
        await pool.query(`
          INSERT INTO chats (id, channel_id, client_id, state, created_at) VALUES (3, 1, 2, 'closed', 200000);
          INSERT INTO messages (chat_id, author, type, text, delivery, created_at) VALUES (3, 'client', 'text', 'x', 'delivered', 201000);
          UPDATE chats SET state = 'closed', closed_at = 900000 WHERE id IN (2, 3);
          UPDATE chats SET rate = 'positive' WHERE id = 2;
          UPDATE chats SET crm_json = '{"order":1}' WHERE id = 1;
          UPDATE chats SET created_at = 7300000 WHERE id = 3;`);
        const read = async (sql: string) => (await pool.query(sql)).rows;
        return {
          chats: await read('SELECT id, first_client_message_at, first_agent_message_at FROM chats ORDER BY id'),
          chatAgents: await read('SELECT * FROM chat_agents ORDER BY chat_id, agent_id'),
          hours: await read('SELECT * FROM report_hours WHERE chats <> 0 ORDER BY 1, 2, 3, 4'),
          durations: await read('SELECT * FROM report_durations WHERE count <> 0 ORDER BY 1, 2, 3, 4, 5, 6'),
          agentHours: await read('SELECT * FROM report_agent_hours WHERE chats <> 0 ORDER BY 1, 2, 3, 4'),
          agentDays: await read('SELECT * FROM report_agent_days WHERE chats <> 0 ORDER BY 1, 2, 3, 4, 5'),
          agentDurations: await read('SELECT * FROM report_agent_durations WHERE count <> 0 ORDER BY 1, 2, 3, 4, 5, 6'),
        };
      } finally {
        await pool.end();
      }
    };
    const [atVersion23, atVersion24] = [await facts(oldUrl), await facts(newUrl)];
    expect(atVersion24).toEqual(atVersion23);
    expect(atVersion24.chats[1]).toEqual({
      id: 2,
      first_client_message_at: 100000 + 61000 * 3,
      first_agent_message_at: 100000 + 61000 * 5,
    });
    // Chat 2's answers: Bo first (the note and the agentless message are no answer), then Ann.
    expect(atVersion24.chatAgents.filter((r: { chat_id: number }) => r.chat_id === 2)).toEqual([
      { chat_id: 2, agent_id: 1, first_message_at: 100000 + 61000 * 7 },
      { chat_id: 2, agent_id: 2, first_message_at: 100000 + 61000 * 5 },
    ]);
  });
});
