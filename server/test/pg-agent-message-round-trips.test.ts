import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { openPgStore } from '../src/store/postgres/pg-store.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { createAgent, createChatApiChannel, postCustomerMessage } from './support/fixtures.ts';
import { recordPgStatements } from './support/pg-statements.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

// Issue 16: an agent's message through the agent API pays every round trip to PostgreSQL before its 201. This
// counts the statements one sends through the pool (the server runs in this process, so every pg client is
// counted); the least of a few samples leaves out background work (the outbox's poll and claims).
const engine = await startPostgres().catch((error: unknown) => {
  engineUnavailable(error);
  return undefined;
});
afterAll(() => engine?.stop());

const sent = recordPgStatements((_, sql) => sql);
/** The same, with the pg client that sent each: to tell a test's own statements from the server's background work. */
const sentBy = recordPgStatements((client, sql) => ({ client, sql }));

/** The read of chats for their agents (the permission check of every agent request on a chat). */
const chatRead = /AS i\(chat_id, agent_id, ord\)/;
const batchStatement = /AS i\(chat_id, author, agent_id/;

/** Deadlocks PostgreSQL has broken in the database so far (the statements retry them, so no request fails). */
async function deadlocks(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()')).rows[0].deadlocks);
  } finally {
    await client.end();
  }
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/** The statements of the fewest of `samples` runs of `work`, the outbox's own left out. */
async function fewestStatements(samples: number, work: (i: number) => Promise<void>): Promise<string[]> {
  let fewest: string[] | undefined;
  for (let i = 0; i < samples; i++) {
    // the outbox's attempt of the sample before settles first
    await new Promise((resolve) => setTimeout(resolve, 200));
    sent.length = 0;
    await work(i);
    const own = sent.map(oneLine).filter((sql) => !/FROM deliveries d WHERE d.state = 'pending'/.test(sql));
    if (!fewest || own.length < fewest.length) fewest = own;
  }
  return fewest!;
}

describe.skipIf(!engine)('Agent message on PostgreSQL: round trips', () => {
  let svc: TestServer;
  beforeAll(async () => {
    svc = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '60000' }, undefined, engine!.createDatabase(`agent_trips_${process.pid}`));
  });
  afterAll(() => svc?.dispose());

  it('reads only the chat (the agent and the channel come from caches), then is stored with its chat update and its delivery in one statement, without BEGIN/COMMIT', async ({
    annotate,
  }) => {
    const agent = await createAgent(svc.api);
    const channel = await createChatApiChannel(svc.api, { webhook_url: 'http://127.0.0.1:9/none', agent_ids: [agent.id] });
    const chatId = (await postCustomerMessage(svc.api, channel.endpoint, 'asks', 'hello')).body.chat_id;
    const statements = await fewestStatements(5, async (i) => {
      const res = await svc.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: `answer ${i}` }, agent.token);
      expect(res.status).toBe(201);
    });
    // what follows the write is the outbox worker, woken by the new delivery
    const write = statements.findIndex((sql) => /INSERT INTO messages/.test(sql));
    const own = statements.slice(0, write + 1);
    await annotate(`agent message: ${own.length} statements\n  ${own.map((sql) => sql.slice(0, 100)).join('\n  ')}`);
    expect(write).toBeGreaterThanOrEqual(0);
    expect(own).not.toContain('BEGIN');
    expect(own[write]).toMatch(/FOR UPDATE/);
    expect(statements.filter((sql) => /INSERT INTO (messages|deliveries)/.test(sql))).toHaveLength(1);
    expect(own).toHaveLength(2);
    expect(own[0]).toMatch(chatRead);
  });
  it("carries the message's own id to the integrator, also for a customer whose id is the statement's stand-in", async () => {
    const integrator = await startFakeIntegrator();
    try {
      const agent = await createAgent(svc.api);
      const channel = await createChatApiChannel(svc.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
      for (const [i, customer] of [Number.MAX_SAFE_INTEGER, 'plain'].entries()) {
        const chatId = (await postCustomerMessage(svc.api, channel.endpoint, customer, 'hello')).body.chat_id;
        const sent = await svc.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: `answer ${i}` }, agent.token);
        expect(sent.status).toBe(201);
        await integrator.waitFor(i + 1);
        expect(integrator.received[i]!.body).toEqual({
          sender: { name: agent.name },
          recipient: { id: customer },
          message: { type: 'text', id: String(sent.body.message.id), text: `answer ${i}` },
        });
      }
    } finally {
      await integrator.close();
    }
  });
  it('N agent messages sent at once, several to one chat: each is answered with its own message and a chat keeps its order', async ({
    annotate,
  }) => {
    const integrator = await startFakeIntegrator();
    try {
      const agent = await createAgent(svc.api);
      const channel = await createChatApiChannel(svc.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
      const chats: number[] = [];
      for (let c = 0; c < 10; c++) chats.push((await postCustomerMessage(svc.api, channel.endpoint, `group-${c}`, 'hello')).body.chat_id);
      const texts = chats.flatMap((chatId) => [0, 1, 2].map((k) => ({ chatId, text: `chat ${chatId} answer ${k}` })));
      sent.length = 0;
      const answers = await Promise.all(
        texts.map(({ chatId, text }) => svc.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text }, agent.token)),
      );
      // every write of an agent message is one statement and its own commit
      const commits = sent.filter((sql) => /INSERT INTO messages/.test(sql)).length;
      const reads = sent.filter((sql) => chatRead.test(sql)).length;
      await annotate(`${texts.length} agent messages sent at once: ${commits} commits, ${reads} chat reads`);
      expect(answers.map((a) => a.status)).toEqual(texts.map(() => 201));
      expect(answers.map((a) => a.body.message.text)).toEqual(texts.map((t) => t.text));
      // how many share a commit depends on how the requests arrive: counted here, asserted on one moment below

      await integrator.waitFor(texts.length);
      for (const chatId of chats) {
        const stored = (await svc.api.get(`/api/v1/chats/${chatId}/messages`, agent.token)).body.messages.filter(
          (m: { author: string }) => m.author === 'agent',
        );
        const ids = answers.filter((a) => a.body.message.chat_id === chatId).map((a) => a.body.message.id as number);
        // the chat lists its messages in id order, and its last one is the newest of them
        expect(stored.map((m: { id: number }) => m.id)).toEqual([...ids].sort((a, b) => a - b));
        const chat = (await svc.api.get(`/api/v1/chats/${chatId}`, agent.token)).body.chat;
        expect(chat.last_message.id).toBe(Math.max(...ids));
        // the integrator got the chat's messages in that order, each with its own id
        const customer = `group-${chats.indexOf(chatId)}`;
        const delivered = integrator.received.filter((r) => r.body.recipient.id === customer).map((r) => r.body.message);
        expect(delivered.map((m: { id: string }) => Number(m.id))).toEqual(stored.map((m: { id: number }) => m.id));
        expect(delivered.map((m: { text: string }) => m.text)).toEqual(stored.map((m: { text: string }) => m.text));
      }
    } finally {
      await integrator.close();
    }
  });
  it('N reads and N messages asked at one moment take fewer than N statements and commits, and a message to a chat that is gone fails alone', async () => {
    // a second node on the same database, asked directly: its requests all arrive at one moment
    const store = await openPgStore({ url: svc.dbPath });
    try {
      const agent = await createAgent(svc.api);
      const stranger = await createAgent(svc.api);
      const channel = await createChatApiChannel(svc.api, { webhook_url: 'http://127.0.0.1:9/none', agent_ids: [agent.id] });
      const chats: number[] = [];
      for (let c = 0; c < 10; c++) chats.push((await postCustomerMessage(svc.api, channel.endpoint, `moment-${c}`, 'hello')).body.chat_id);

      sent.length = 0;
      const [mine, theirs] = await Promise.all([
        Promise.all(chats.map((id) => store.chats.findForAgent(id, agent.id))),
        Promise.all(chats.map((id) => store.chats.findForAgent(id, stranger.id))),
      ]);
      expect(mine.map((chat) => chat?.id)).toEqual(chats);
      // an agent not on the channel is refused their own reads only
      expect(theirs).toEqual(chats.map(() => undefined));
      expect(sent.filter((sql) => chatRead.test(sql)).length).toBeLessThan(2 * chats.length);

      // A chat's first agent answer (and an agent's first message in a chat) moves report rows many chats share:
      // two batches locking those rows in their own orders could deadlock. Known to be a first from the read
      // before it, each goes in a statement of its own: not left out of a batch first, not in a transaction.
      sent.length = 0;
      sentBy.length = 0;
      const firsts = await Promise.all(
        chats.map((chatId) =>
          store.chats.appendAgentMessage({
            chatId,
            agentId: agent.id,
            message: { type: 'text', text: 'first', media: {} },
            delivery: () => null,
          }),
        ),
      );
      expect(firsts.map((f) => f.message.text)).toEqual(chats.map(() => 'first'));
      const writes = sent.filter((sql) => /INSERT INTO messages/.test(sql));
      expect(writes.length).toBe(chats.length);
      expect(writes.every((sql) => batchStatement.test(sql) && !/first_agent_message_at IS NOT NULL/.test(sql))).toBe(true);
      // none of the connections that wrote them opened a transaction (the server in this process may, for its outbox)
      const writers = new Set(sentBy.filter(({ sql }) => /INSERT INTO messages/.test(sql)).map(({ client }) => client));
      expect(sentBy.filter(({ client, sql }) => writers.has(client) && sql === 'BEGIN')).toEqual([]);
      // every first written together counts in the reports as a first answer of the agent's
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(Date.now());
      const report = await svc.api.get(`/api/v1/reports?from=${day}&to=${day}&channel_id=${channel.id}`, ADMIN_TOKEN);
      expect(report.body).toMatchObject({
        chats: chats.length,
        missed: 0,
        first_response_seconds: { median: 0 },
        by_agent: [{ agent_id: agent.id, chats: chats.length }],
      });

      sent.length = 0;
      const gone = Math.max(...chats) + 1_000_000;
      const written = await Promise.allSettled(
        [...chats, gone].map((chatId) =>
          store.chats.appendAgentMessage({
            chatId,
            agentId: agent.id,
            message: { type: 'text', text: `to ${chatId}`, media: {} },
            delivery: () => null,
          }),
        ),
      );
      expect(sent.filter((sql) => /INSERT INTO messages/.test(sql) && !/BEGIN/.test(sql)).length).toBeLessThan(chats.length);
      expect(sent.filter((sql) => batchStatement.test(sql)).length).toBeGreaterThan(0);
      expect(written.slice(0, -1).map((w) => w.status === 'fulfilled' && w.value.message.text)).toEqual(chats.map((id) => `to ${id}`));
      expect(written.at(-1)!.status).toBe('rejected');
      for (const [i, chatId] of chats.entries()) {
        const stored = (
          written[i] as PromiseFulfilledResult<{ chat: { id: number; lastMessage: { id: number } | null }; message: { id: number } }>
        ).value;
        expect(stored.chat.id).toBe(chatId);
        expect(stored.chat.lastMessage!.id).toBe(stored.message.id);
      }
    } finally {
      await store.close();
    }
  });
  it('answers each chat and message as the store reads them back: client, department, last message and its agent', async () => {
    const store = await openPgStore({ url: svc.dbPath });
    const client = new pg.Client({ connectionString: svc.dbPath });
    await client.connect();
    try {
      const agent = await createAgent(svc.api, { name: 'Rita Reply' });
      const channel = await createChatApiChannel(svc.api, { webhook_url: 'http://127.0.0.1:9/none', agent_ids: [agent.id] });
      const chats: number[] = [];
      for (let c = 0; c < 4; c++)
        chats.push((await postCustomerMessage(svc.api, channel.endpoint, `read-back-${c}`, 'hello')).body.chat_id);
      const { id: departmentId } = (await client.query("INSERT INTO departments (name, created_at) VALUES ('Returns', 0) RETURNING id"))
        .rows[0];
      await client.query('UPDATE chats SET department_id = $1 WHERE id = $2', [departmentId, chats[0]]);
      // the firsts (a statement each), then the second answers in one statement: none written alone by a
      // transaction of its own, which would answer the same
      for (const round of ['first', 'second']) {
        await Promise.all(chats.map((chatId) => store.chats.findForAgent(chatId, agent.id)));
        sent.length = 0;
        const stored = await Promise.all(
          chats.map((chatId) =>
            store.chats.appendAgentMessage({
              chatId,
              agentId: agent.id,
              message: { type: 'text', text: `${round} to ${chatId}`, media: {} },
              delivery: () => null,
            }),
          ),
        );
        const writes = sent.filter((sql) => /INSERT INTO messages/.test(sql));
        expect(writes.every((sql) => batchStatement.test(sql))).toBe(true);
        expect(writes).toHaveLength(round === 'first' ? chats.length : 1);
        for (const { chat, message } of stored) {
          expect(chat).toEqual(await store.chats.findById(chat.id));
          expect(message).toEqual(await store.messages.findById(message.id));
          expect(message).toMatchObject({ agentName: 'Rita Reply', text: `${round} to ${chat.id}`, delivery: 'delivered' });
        }
        expect(stored[0]!.chat.department).toEqual({ id: Number(departmentId), name: 'Returns' });
        expect(stored[1]!.chat.client.externalKey).toBe('read-back-1');
      }
    } finally {
      await client.end();
      await store.close();
    }
  });
  it("two nodes, each with its agent's first answers to new chats of several channels in its own order, store every one without a deadlock", async () => {
    const nodes = [await openPgStore({ url: svc.dbPath }), await openPgStore({ url: svc.dbPath })];
    let closed = false;
    const closeNodes = async () => {
      if (!closed) await Promise.all(nodes.map((n) => n.close()));
      closed = true;
    };
    try {
      const agents = [await createAgent(svc.api), await createAgent(svc.api)];
      // report rows are per channel: chats of several channels, so two batches could lock them in opposite orders
      const channels = [];
      for (let c = 0; c < 4; c++)
        channels.push(await createChatApiChannel(svc.api, { webhook_url: 'http://127.0.0.1:9/none', agent_ids: agents.map((a) => a.id) }));
      const before = await deadlocks(svc.dbPath);
      for (let round = 0; round < 10; round++) {
        // each node its own chats (report rows are shared, chat rows are not), the first channel's first on one
        // node and last on the other
        const chats: number[][] = [[], []];
        for (const [c, channel] of channels.entries())
          for (let k = 0; k < 6; k++)
            chats[k % 2]!.push((await postCustomerMessage(svc.api, channel.endpoint, `burst-${round}-${c}-${k}`, 'hello')).body.chat_id);
        const written = await Promise.allSettled(
          nodes.flatMap((node, n) => {
            const order = n === 0 ? chats[0]! : [...chats[1]!].reverse();
            // as the agent API does: the chat read (its permission check), then the message
            return order.map(async (chatId) => {
              await node.chats.findForAgent(chatId, agents[n]!.id);
              return node.chats.appendAgentMessage({
                chatId,
                agentId: agents[n]!.id,
                message: { type: 'text', text: `first of agent ${n}`, media: {} },
                delivery: () => null,
              });
            });
          }),
        );
        expect(written.map((w) => w.status)).toEqual(written.map(() => 'fulfilled'));
      }
      // a backend's statistics reach pg_stat_database by the time it has exited
      await closeNodes();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await deadlocks(svc.dbPath)) - before).toBe(0);
    } finally {
      await closeNodes();
    }
  });
});
