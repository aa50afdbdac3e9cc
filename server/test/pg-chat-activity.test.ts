import { afterAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { migrations } from '../src/store/schema.ts';
import { createPgChatsRepo } from '../src/store/postgres/chats-repo.ts';
import { openPgDb } from '../src/store/postgres/pg-db.ts';
import { pgDatabaseBeforeVersion } from './support/pg-before-version.ts';

// A database from before a chat's activity was kept apart (store/postgres/chat-activity.ts): what version 30 finds.
const APART_VERSION = migrations.find((m) => m.name === 'what every message changes in a chat apart from the chat')!.version;

const rows = [
  `INSERT INTO agents (id, name, email, password_hash, created_at) VALUES (1, 'Ann', 'ann@example.com', 'x', 0)`,
  `INSERT INTO channels (id, public_id, kind, name, random_string, signing_secret, created_at) VALUES (1, 'c1', 'chat_api', 'Shop', 'r', 's', 0)`,
  `INSERT INTO channel_agents (channel_id, agent_id) VALUES (1, 1)`,
  `INSERT INTO clients (id, channel_id, external_key, external_id_json, created_at, updated_at)
     SELECT g, 1, 'k' || g, '"k' || g || '"', 0, 0 FROM generate_series(1, 3) g`,
  `INSERT INTO chats (id, channel_id, client_id, state, created_at, last_activity_at) VALUES
     (1, 1, 1, 'open', 1000, 1000), (2, 1, 2, 'open', 2000, 2000), (3, 1, 3, 'closed', 3000, 3000)`,
  `INSERT INTO messages (id, chat_id, author, type, text, delivery, created_at) VALUES
     (1, 1, 'client', 'text', 'first', 'delivered', 1500), (2, 3, 'client', 'text', 'old', 'delivered', 3500),
     (3, 1, 'client', 'text', 'second', 'delivered', 9000)`,
  `UPDATE chats SET last_message_id = 3, last_activity_at = 9000 WHERE id = 1`,
  `UPDATE chats SET last_message_id = 2, last_activity_at = 3500 WHERE id = 3`,
  ...['clients', 'chats', 'messages'].map((table) => `SELECT setval(pg_get_serial_sequence('${table}', 'id'), 10)`),
];

const pgServer = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return null;
});
afterAll(() => pgServer?.stop());

async function databaseBeforeVersion30(name: string) {
  const url = await pgDatabaseBeforeVersion(pgServer!, name, APART_VERSION, async (pool) => {
    for (const sql of rows) await pool.query(sql);
  });
  return openPgDb({ url, poolSize: 2 });
}

describe.skipIf(!pgServer)('PostgreSQL version 30: a chat activity kept apart from the chat', () => {
  it("carries each chat's last message and activity over from a database that had them in chats", async () => {
    const db = await databaseBeforeVersion30('activity_existing');
    try {
      expect(await db.all('SELECT * FROM chat_activity ORDER BY id')).toEqual([
        { id: 1, channel_id: 1, state: 'open', last_message_id: 3, last_activity_at: 9000 },
        { id: 2, channel_id: 1, state: 'open', last_message_id: null, last_activity_at: 2000 },
        { id: 3, channel_id: 1, state: 'closed', last_message_id: 2, last_activity_at: 3500 },
      ]);
      const chats = createPgChatsRepo(db);
      expect((await chats.findById(1))?.lastMessage?.text).toBe('second');
      expect((await chats.findById(2))?.lastMessage).toBeNull();
      // newest message first; the chat without one last
      expect((await chats.listForAgent(1, 'open', 10, null)).chats.map((c) => c.id)).toEqual([1, 2]);
      expect(await chats.listIdle(1, 5000, 10)).toEqual([2]);
    } finally {
      await db.close();
    }
  });

  it('follows the chat: a new message, an auto-close of a chat written in since it was listed, a close, a delete', async () => {
    const db = await databaseBeforeVersion30('activity_follows');
    try {
      const chats = createPgChatsRepo(db);
      const message = { type: 'text' as const, text: 'still there?', media: {}, externalId: null };
      const client = { key: 'k2', id: 'k2', profile: {} };
      const stored = await chats.appendClientMessage({ channelId: 1, client, botProviderRowId: null, message });
      if (stored.replayed) throw new Error('not a replay');
      const activity = async (id: number) => db.one('SELECT state, last_message_id FROM chat_activity WHERE id = $1', [id]);
      expect(await activity(2)).toEqual({ state: 'open', last_message_id: stored.message.id });
      // chat 2 was idle at 5000 when the sweep listed it, but its message came first: it stays open
      expect(await chats.closeIdle(2, 5000, 'closed', [])).toBeUndefined();
      expect(await chats.close(2, false)).toBe(true);
      expect(await activity(2)).toMatchObject({ state: 'closed' });
      expect((await chats.listForAgent(1, 'closed', 10, null)).chats.map((c) => c.id)).toEqual([2, 3]);
      await db.run('DELETE FROM messages WHERE chat_id = 3');
      await db.run('DELETE FROM chats WHERE id = 3');
      expect(await activity(3)).toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
