import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey } from '@svc/protocol';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { openPgStore } from '../src/store/postgres/pg-store.ts';
import type { Store } from '../src/store/store.ts';
import { createAgent, createChatApiChannel, postCustomerMessage } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// Issue 16: admission control refuses new messages while the store is `SVC_MAX_IN_FLIGHT` writes behind. On
// PostgreSQL, messages into live chats wait in the intake batch's queue, not for a pool connection: that queue
// is part of the backlog, or a store stuck behind a lock would look idle.
const engine = await startPostgres().catch((error: unknown) => {
  engineUnavailable(error);
  return undefined;
});
afterAll(() => engine?.stop());

describe.skipIf(!engine)('PostgreSQL store: write backlog', () => {
  let svc: TestServer;
  let url: string;
  let store: Store;
  const customers = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5'];
  beforeAll(async () => {
    url = engine!.createDatabase(`backlog_${process.pid}`);
    svc = await startTestServer({ SVC_RATE_LIMITS: 'off' }, undefined, url);
    const agent = await createAgent(svc.api);
    const channel = await createChatApiChannel(svc.api, { webhook_url: 'http://127.0.0.1:9/none', agent_ids: [agent.id] });
    for (const customer of customers) expect((await postCustomerMessage(svc.api, channel.endpoint, customer, 'first')).status).toBe(200);
    store = await openPgStore({ url });
  });
  afterAll(async () => {
    await store?.close();
    await svc?.dispose();
  });

  it('counts the messages queued for the intake batch while the statements in flight wait, and none once they commit', async () => {
    const channelId = (await store.channels.list()).find((c) => c.kind === 'chat_api')!.id;
    const locker = new pg.Client({ connectionString: url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE messages, chats IN EXCLUSIVE MODE');
    const append = (customer: string) =>
      store.chats.appendClientMessage({
        channelId,
        client: { key: clientKey(customer), id: customer, profile: {} },
        botProviderRowId: null,
        message: { type: 'text', text: 'while locked', media: {}, externalId: null },
      });
    const later = () => new Promise((resolve) => setTimeout(resolve, 50));
    // Two statements go in flight (blocked by the lock), each with the one message of its turn of the event
    // loop; the four arriving together next wait for them.
    const appended = [append(customers[0]!)];
    await later();
    appended.push(append(customers[1]!));
    await later();
    appended.push(...customers.slice(2).map(append));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(store.writeBacklog()).toBe(customers.length - 2);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    const results = await Promise.all(appended);
    expect(results.every((r) => !r.replayed && r.message.text === 'while locked')).toBe(true);
    expect(store.writeBacklog()).toBe(0);
  });
});
