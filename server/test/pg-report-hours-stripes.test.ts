import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestChannel } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// Issue 16: every new chat adds itself to its hour's report counts. When those were one row per channel,
// department and hour, a new customer's first message waited for every other new chat's transaction to commit.
const engine = await startPostgres().catch((error: unknown) => {
  engineUnavailable(error);
  return undefined;
});
afterAll(() => engine?.stop());

describe.skipIf(!engine)('new chats on PostgreSQL: the hour report counts', () => {
  let svc: TestServer;
  let channel: TestChannel;
  let db: pg.Client;
  beforeAll(async () => {
    const url = engine!.createDatabase(`stripes_${process.pid}`);
    svc = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '60000' }, undefined, url);
    const agent = await createAgent(svc.api);
    channel = await createChatApiChannel(svc.api, { webhook_url: 'http://127.0.0.1:9/none', agent_ids: [agent.id] });
    db = new pg.Client({ connectionString: url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await svc?.dispose();
  });

  it("a new customer's first message does not wait for another new chat of the same hour to commit", async () => {
    expect((await postCustomerMessage(svc.api, channel.endpoint, 'first', 'hello')).status).toBe(200);
    // Another writer (another node, say) has opened a chat of the same channel and hour and not committed yet.
    await db.query('BEGIN');
    const now = Date.now();
    const client = await db.query(
      `INSERT INTO clients (channel_id, external_key, external_id_json, created_at, updated_at) VALUES ($1, 'open-tx', '"open-tx"', $2, $2) RETURNING id`,
      [channel.id, now],
    );
    await db.query(`INSERT INTO chats (channel_id, client_id, state, created_at) VALUES ($1, $2, 'open', $3)`, [
      channel.id,
      client.rows[0].id,
      now,
    ]);
    try {
      const answered = await Promise.race([
        postCustomerMessage(svc.api, channel.endpoint, 'second', 'hello').then((res) => res.status),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 3 s'), 3000)),
      ]);
      expect(answered).toBe(200);
    } finally {
      await db.query('ROLLBACK');
    }
    const counted = await db.query('SELECT CAST(SUM(chats) AS INTEGER) AS chats FROM report_hours WHERE channel_id = $1', [channel.id]);
    expect(counted.rows[0].chats).toBe(2);
  });
});
