import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { createPgChatsRepo } from '../src/store/postgres/chats-repo.ts';
import { createClientMessageBatcher } from '../src/store/postgres/client-message-batch.ts';
import { openPgDb } from '../src/store/postgres/pg-db.ts';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestChannel } from './support/fixtures.ts';
import { recordPgStatements } from './support/pg-statements.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

// Issue 16: every round trip to PostgreSQL is paid by each Chat API message. This counts the statements one
// intake sends through the pool (the server runs in this process, so every pg client is counted), so that a
// change adding one shows here. Background work (the outbox poll, sweeps) may add to a single sample; the
// least of a few samples is the intake's own count.
const engine = await startPostgres().catch((error: unknown) => {
  engineUnavailable(error);
  return undefined;
});
afterAll(() => engine?.stop());

const sent = recordPgStatements((_, sql) => sql);

/** The statements the fewest of `samples` runs of `work` sent. */
async function fewestStatements(samples: number, work: (i: number) => Promise<void>): Promise<string[]> {
  let fewest: string[] | undefined;
  for (let i = 0; i < samples; i++) {
    sent.length = 0;
    await work(i);
    if (!fewest || sent.length < fewest.length) fewest = [...sent];
  }
  return fewest!;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 100);

describe.skipIf(!engine)('Chat API intake on PostgreSQL: round trips', () => {
  let svc: TestServer;
  let channel: TestChannel;
  let dbUrl: string;
  beforeAll(async () => {
    dbUrl = engine!.createDatabase(`roundtrips_${process.pid}`);
    svc = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '60000' }, undefined, dbUrl);
    const agent = await createAgent(svc.api);
    channel = await createChatApiChannel(svc.api, { webhook_url: 'http://127.0.0.1:9/none', agent_ids: [agent.id] });
  });
  afterAll(() => svc?.dispose());

  const post = async (sender: string, text: string) => {
    const res = await postCustomerMessage(svc.api, channel.endpoint, sender, text);
    expect(res.status).toBe(200);
  };

  it('a message into a live chat is one statement (the channel comes from the cache), without BEGIN/COMMIT', async ({ annotate }) => {
    for (let i = 0; i < 5; i++) await post(`live-${i}`, 'first');
    const statements = await fewestStatements(5, (i) => post(`live-${i}`, 'again'));
    await annotate(`message into a live chat: ${statements.length} statements\n  ${statements.map(oneLine).join('\n  ')}`);
    expect(statements.map(oneLine)).not.toContain('BEGIN');
    expect(statements.length).toBe(1);
  });

  it("a new customer's first message opens the chat in one statement, with no live-chat attempt before it", async ({ annotate }) => {
    const statements = await fewestStatements(5, (i) => post(`new-${i}`, 'hello'));
    await annotate(`first message of a new customer: ${statements.length} statements\n  ${statements.map(oneLine).join('\n  ')}`);
    expect(statements.length).toBe(1);
    expect(statements[0]).toContain('INSERT INTO clients');
  });

  it('a customer with a live chat this node has not seen (its first message after a restart) still writes into that chat', async () => {
    const first = await postCustomerMessage(svc.api, channel.endpoint, 'before-restart', 'hello');
    const restarted = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '60000' }, undefined, dbUrl);
    try {
      const again = await postCustomerMessage(restarted.api, channel.endpoint, 'before-restart', 'me again');
      expect(again.status).toBe(200);
      expect(again.body.chat_id).toBe(first.body.chat_id);
    } finally {
      await restarted.dispose();
    }
  });

  it('a customer erased after writing through this node opens a new chat with their next message', async () => {
    const first = await postCustomerMessage(svc.api, channel.endpoint, 'erased-then-back', 'hello');
    const erased = await svc.api.delete(`/api/v1/channels/${channel.id}/clients/erased-then-back`, ADMIN_TOKEN);
    expect(erased.status).toBe(204);
    const again = await postCustomerMessage(svc.api, channel.endpoint, 'erased-then-back', 'hello again');
    expect(again.status).toBe(200);
    expect(again.body.chat_id).not.toBe(first.body.chat_id);
    expect((await svc.api.get(`/api/v1/channels/${channel.id}/clients/erased-then-back/export`, ADMIN_TOKEN)).status).toBe(200);
  });

  it('new customers writing at once are opened together: a few statements for twenty, each its own chat', async ({ annotate }) => {
    sent.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postCustomerMessage(svc.api, channel.endpoint, `crowd-${i}`, `hello from ${i}`)),
    );
    const opening = sent.map(oneLine).filter((sql) => sql.includes('INSERT INTO clients'));
    await annotate(`20 new customers at once: ${opening.length} statements opened their chats`);
    expect(answers.map((res) => res.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((res) => res.body.chat_id)).size).toBe(20);
    expect(opening.length).toBeLessThanOrEqual(4);
    const again = await postCustomerMessage(svc.api, channel.endpoint, 'crowd-7', 'me again');
    expect(again.body.chat_id).toBe(answers[7]!.body.chat_id);
  });

  it('messages into live chats that arrive in one turn of the event loop share one statement', async () => {
    const customers = Array.from({ length: 5 }, (_, i) => `turn-${i}`);
    for (const customer of customers) await post(customer, 'first');
    const db = await openPgDb({ url: dbUrl, poolSize: 2 });
    try {
      const batcher = createClientMessageBatcher(db);
      sent.length = 0;
      const stored = await Promise.all(
        customers.map((key) =>
          batcher.append({
            channelId: channel.id,
            client: { key, id: key, profile: {} },
            botProviderRowId: null,
            message: { type: 'text', text: `again from ${key}`, media: {}, externalId: null },
          }),
        ),
      );
      expect(stored.map((s) => s && { text: s.message.text, chatCreated: s.chatCreated })).toEqual(
        customers.map((key) => ({ text: `again from ${key}`, chatCreated: false })),
      );
      // The first of them no longer goes alone, nor the second alone beside it.
      expect(sent.filter((sql) => sql.includes("JOIN chats ch ON ch.client_id = cl.id AND ch.state != 'closed'"))).toHaveLength(1);
    } finally {
      await db.close();
    }
  });

  it('answers each chat as the store reads it back: its client, department and last message', async () => {
    const profile = { name: 'Ann Example', email: 'ann@example.com', phone: '+41 44 000 00 00' };
    expect((await postCustomerMessage(svc.api, channel.endpoint, 'read-back', 'first', profile)).status).toBe(200);
    const db = await openPgDb({ url: dbUrl, poolSize: 2 });
    try {
      const { id: departmentId } = (await db.one<{ id: number }>(
        "INSERT INTO departments (name, created_at) VALUES ('Returns', 0) RETURNING id",
      ))!;
      await db.run('UPDATE chats SET department_id = $1 WHERE client_id = (SELECT id FROM clients WHERE external_key = $2)', [
        departmentId,
        'read-back',
      ]);
      const batcher = createClientMessageBatcher(db);
      const message = (key: string) => ({
        channelId: channel.id,
        client: { key, id: key, profile: key === 'read-back' ? profile : {} },
        botProviderRowId: null,
        message: { type: 'text' as const, text: `from ${key}`, media: { file_name: 'a.txt' }, externalId: 'ext-1' },
      });
      const [live, opened] = await Promise.all([batcher.append(message('read-back')), batcher.append(message('read-back-new'))]);
      expect([live?.chatCreated, opened?.chatCreated]).toEqual([false, true]);
      const chats = createPgChatsRepo(db);
      for (const stored of [live!, opened!]) {
        expect(stored.chat).toEqual(await chats.findById(stored.chat.id));
        expect(stored.message).toEqual(stored.chat.lastMessage);
      }
      expect(live!.chat.department).toEqual({ id: departmentId, name: 'Returns' });
      expect(live!.chat.client).toMatchObject({ name: 'Ann Example', email: 'ann@example.com', phone: '+41 44 000 00 00' });
    } finally {
      await db.close();
    }
  });
});
