import { afterAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { openPgDb } from '../src/store/postgres/pg-db.ts';

// Issue 16: version 26 writes a message's report facts only when they are new (a lookup first, not an UPDATE or a
// conflicting INSERT for every message). The facts stay those of the chat's first messages, recorded once.
const engine = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return null;
});
afterAll(() => engine?.stop());

describe.skipIf(!engine)('report facts of a message on PostgreSQL, written only when new', () => {
  it("keep each chat's first customer and agent message and each agent's first message in it, also when they come at once", async () => {
    const db = await openPgDb({ url: engine!.createDatabase('facts_when_new'), poolSize: 6 });
    try {
      await db.pool.query(`
        INSERT INTO agents (id, name, email, password_hash, created_at) VALUES (1, 'Ann', 'ann@example.com', 'x', 0), (2, 'Bo', 'bo@example.com', 'x', 0);
        INSERT INTO channels (id, public_id, kind, name, random_string, signing_secret, created_at) VALUES (1, 'c1', 'chat_api', 'Shop', 'r', 's', 0);
        INSERT INTO clients (id, channel_id, external_key, external_id_json, created_at, updated_at) VALUES (1, 1, 'k', '"k"', 0, 0);
        INSERT INTO chats (id, channel_id, client_id, state, created_at) VALUES (1, 1, 1, 'open', 0), (2, 1, 1, 'closed', 0);`);
      const message = (chatId: number, author: string, agentId: number | null, at: number, internal = 0) =>
        db.run(
          `INSERT INTO messages (chat_id, author, agent_id, type, text, delivery, internal, created_at) VALUES ($1, $2, $3, 'text', 'x', 'delivered', $4, $5)`,
          [chatId, author, agentId, internal, at],
        );
      // one at a time: an internal note is no answer, and later messages change nothing
      for (const [author, agentId, at, internal] of [
        ['client', null, 1000, 0],
        ['agent', 1, 1500, 1],
        ['agent', 1, 2000, 0],
        ['client', null, 2500, 0],
        ['agent', 2, 3000, 0],
        ['agent', 1, 3500, 0],
        ['agent', 2, 4000, 0],
      ] as const)
        await message(1, author, agentId, at, internal);
      expect(await db.all('SELECT first_client_message_at, first_agent_message_at FROM chats WHERE id = 1')).toEqual([
        { first_client_message_at: 1000, first_agent_message_at: 2000 },
      ]);
      expect(await db.all('SELECT agent_id, first_message_at FROM chat_agents WHERE chat_id = 1 ORDER BY agent_id')).toEqual([
        { agent_id: 1, first_message_at: 2000 },
        { agent_id: 2, first_message_at: 3000 },
      ]);

      // at once: each fact is recorded by one of them, once
      await Promise.all([
        ...[1, 2].flatMap((agentId) => [0, 1, 2].map((k) => message(2, 'agent', agentId, 10_000 + 10 * agentId + k))),
        ...[0, 1, 2].map((k) => message(2, 'client', null, 9_000 + k)),
      ]);
      const [facts] = await db.all<{ first_client_message_at: number; first_agent_message_at: number }>(
        'SELECT first_client_message_at, first_agent_message_at FROM chats WHERE id = 2',
      );
      expect([9_000, 9_001, 9_002]).toContain(facts!.first_client_message_at);
      expect([10_010, 10_011, 10_012, 10_020, 10_021, 10_022]).toContain(facts!.first_agent_message_at);
      const agents = await db.all<{ agent_id: number }>('SELECT agent_id FROM chat_agents WHERE chat_id = 2 ORDER BY agent_id');
      expect(agents.map((a) => a.agent_id)).toEqual([1, 2]);
    } finally {
      await db.close();
    }
  });
});
