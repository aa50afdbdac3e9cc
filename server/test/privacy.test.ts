import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AGENT_NAMESPACE, VISITOR_NAMESPACE, type AgentServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { testDialect } from './support/test-db.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const SECRET = 'my-card-number-4970-1234-ZZQX';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let agent: TestAgent;
let channel: TestChannel;

/** Every file under the data directory that holds `text`, by name. */
function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (fs.readFileSync(file).includes(text) || file.includes(text)) found.push(path.relative(dir, file));
  }
  return found;
}

async function customerChat(customer: string, text: string) {
  const posted = await postCustomerMessage(t.api, channel.endpoint, customer, text, { name: `Name ${customer}` });
  expect(posted.status).toBe(200);
  const chat = (await t.api.get(`/api/v1/chats/${posted.body.chat_id}`, agent.token)).body.chat;
  return { chatId: posted.body.chat_id as number, clientId: chat.client.id as string };
}

/** Today's report of the channel (UTC), as the admin reads it. */
async function report() {
  const today = new Date().toISOString().slice(0, 10);
  const res = await t.api.get(`/api/v1/reports?from=${today}&to=${today}&channel_id=${channel.id}`, ADMIN_TOKEN);
  expect(res.status).toBe(200);
  return res.body;
}

beforeAll(async () => {
  integrator = await startFakeIntegrator();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
  t = await startTestServer({ SVC_RETENTION_SWEEP_S: '0.2', SVC_UPLOADS_DIR: path.join(dir, 'uploads') }, dir);
  agent = await createAgent(t.api, { name: 'Ann' });
  channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

describe("a customer's data on request", () => {
  it('exports everything stored about the customer as one JSON document', async () => {
    const { chatId, clientId } = await customerChat('export-me', 'Where is my order 77?');
    await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'On its way.' }, agent.token);
    const res = await t.api.get(`/api/v1/channels/${channel.id}/clients/${encodeURIComponent(clientId)}/export`, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.client).toMatchObject({ name: 'Name export-me', external_key: clientId });
    expect(res.body.client).not.toHaveProperty('visitor_token_hash');
    expect(res.body.chats).toHaveLength(1);
    expect(res.body.chats[0].messages.map((m: { text: string }) => m.text)).toEqual(['Where is my order 77?', 'On its way.']);
    expect((await t.api.get(`/api/v1/channels/${channel.id}/clients/nobody/export`, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.get(`/api/v1/channels/${channel.id}/clients/${clientId}/export`, agent.token)).status).toBe(401);
  });

  it('erases the customer so that no file under the data directory holds what they wrote, and logs who did it', async () => {
    const { chatId, clientId } = await customerChat('erase-me', `My card is ${SECRET}`);
    const uploaded = (await (
      await fetch(`${t.base}/api/v1/uploads?name=scan.png`, {
        method: 'POST',
        body: Buffer.concat([PNG, Buffer.from(SECRET)]),
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${agent.token}` },
      })
    ).json()) as { file: string };
    const answer = await t.api.post(`/api/v1/chats/${chatId}/messages`, uploaded, agent.token);
    expect(answer.status).toBe(201);
    await t.api.post(`/api/v1/chats/${chatId}/close`, {}, agent.token);
    expect(filesHolding(t.dir, SECRET).length).toBeGreaterThan(0);

    const erased = await t.api.delete(`/api/v1/channels/${channel.id}/clients/${encodeURIComponent(clientId)}`, ADMIN_TOKEN);
    expect(erased.status).toBe(204);
    // on PostgreSQL the database's files are elsewhere (docs/operators.md); the uploads are here on both
    expect(filesHolding(t.dir, SECRET)).toEqual([]);
    expect((await t.api.get(`/api/v1/channels/${channel.id}/clients/${clientId}/export`, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.get(`/api/v1/chats/${chatId}`, agent.token)).status).toBe(404);
    expect((await fetch(uploaded.file)).status).toBe(404);

    const log = await t.api.get('/api/v1/erasures', ADMIN_TOKEN);
    expect(log.body.erasures[0]).toMatchObject({
      reason: 'request',
      actor: 'admin token',
      channel_id: channel.id,
      client_id: clientId,
      counts: { clients: 1, chats: 1, messages: 2 },
      // no reader kept the files from being emptied (SQLite), and PostgreSQL's erasures are complete at once
      state: 'complete',
    });
    const [logged] = log.body.erasures;
    expect(Date.parse(logged.completed_at)).toBeGreaterThanOrEqual(Date.parse(logged.at));
    expect(JSON.stringify(log.body)).not.toContain(SECRET);

    // writing again, the customer starts afresh: a new chat holding only the new message
    const again = await customerChat('erase-me', 'Hello again');
    const fresh = await t.api.get(`/api/v1/channels/${channel.id}/clients/${encodeURIComponent(again.clientId)}/export`, ADMIN_TOKEN);
    expect(fresh.body.chats.map((c: { messages: { text: string }[] }) => c.messages.map((m) => m.text))).toEqual([['Hello again']]);
    // The erased chat was the newest, yet its ids are not given again: an agent's open link, an integrator's
    // record or a bot's state keyed by them does not reach the new chat.
    expect(again.chatId).toBeGreaterThan(chatId);
    expect(fresh.body.chats[0].messages[0].id).toBeGreaterThan(answer.body.message.id);
    expect((await t.api.get(`/api/v1/chats/${chatId}`, agent.token)).status).toBe(404);
    expect((await t.api.delete(`/api/v1/channels/${channel.id}/clients/nobody`, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.delete(`/api/v1/channels/999999/clients/${clientId}`, ADMIN_TOKEN)).status).toBe(404);
  });
});

/** A backup's read transaction on the test server's database: it sees the database as it was, so SQLite may not
 * overwrite the WAL until it ends. */
function holdReader(dbPath: string) {
  const backup = new Database(dbPath, { readonly: true });
  backup.exec('BEGIN');
  backup.prepare('SELECT count(*) FROM messages').get();
  return () => {
    backup.exec('COMMIT');
    backup.close();
  };
}

/** The erasure log's record of the customer's erasure. */
async function loggedErasureOf(server: TestServer, clientId: string) {
  const log = await server.api.get('/api/v1/erasures', ADMIN_TOKEN);
  return (log.body.erasures as { client_id: string; at: string; state: string; completed_at: string | null }[]).find(
    (e) => e.client_id === clientId,
  );
}

describe('an erasure while another process reads the database (SQLite)', () => {
  it.skipIf(testDialect === 'postgres')(
    'answers 202 and logs the erasure pending while the reader keeps the erased text in the WAL; once the reader is done, the node empties the WAL and logs it complete',
    async () => {
      const secret = 'backup-time-card-5181-0000-QWPX';
      const { chatId, clientId } = await customerChat('erased-during-backup', `My card is ${secret}`);
      const release = holdReader(t.dbPath);
      let releasedAt: number;
      try {
        const erased = await t.api.delete(`/api/v1/channels/${channel.id}/clients/${encodeURIComponent(clientId)}`, ADMIN_TOKEN);
        expect(erased.status).toBe(202);
        expect(erased.body).toMatchObject({ wal_pending: true, message: expect.stringContaining('write-ahead log') });
        expect((await t.api.get(`/api/v1/chats/${chatId}`, agent.token)).status).toBe(404);
        // the WAL, and the database file too when a checkpoint had copied the row there before the erasure
        expect(filesHolding(t.dir, secret)).toContain(`${path.basename(t.dbPath)}-wal`);
        // a checkpoint tick (1 s) while the reader still holds the WAL leaves it pending
        await new Promise((resolve) => setTimeout(resolve, 1200));
        expect(await loggedErasureOf(t, clientId)).toMatchObject({ state: 'pending', completed_at: null });
      } finally {
        releasedAt = Date.now();
        release();
      }
      await expect.poll(() => filesHolding(t.dir, secret), { timeout: 5000 }).toEqual([]);
      await expect.poll(async () => (await loggedErasureOf(t, clientId))?.state, { timeout: 3000 }).toBe('complete');
      expect(Date.parse((await loggedErasureOf(t, clientId))!.completed_at!)).toBeGreaterThanOrEqual(releasedAt);
    },
  );

  it.skipIf(testDialect === 'postgres')(
    'left pending when the node stopped, is emptied and logged complete when the node starts again',
    async () => {
      let node = await startTestServer();
      try {
        const ownAgent = await createAgent(node.api, { name: 'Ola' });
        const ownChannel = await createChatApiChannel(node.api, { webhook_url: integrator.url, agent_ids: [ownAgent.id] });
        const posted = await postCustomerMessage(node.api, ownChannel.endpoint, 'erased-before-restart', 'My card is 4111-RESTART');
        const clientId = (await node.api.get(`/api/v1/chats/${posted.body.chat_id}`, ownAgent.token)).body.chat.client.id as string;
        const release = holdReader(node.dbPath);
        try {
          const erased = await node.api.delete(`/api/v1/channels/${ownChannel.id}/clients/${encodeURIComponent(clientId)}`, ADMIN_TOKEN);
          expect(erased.status).toBe(202);
          await node.stop();
        } finally {
          release();
        }
        expect(filesHolding(node.dir, '4111-RESTART')).not.toEqual([]);
        const stoppedAt = Date.now();
        node = await startTestServer({}, node.dir, node.dbPath);
        expect(filesHolding(node.dir, '4111-RESTART')).toEqual([]);
        const logged = await loggedErasureOf(node, clientId);
        expect(logged).toMatchObject({ state: 'complete' });
        expect(Date.parse(logged!.completed_at!)).toBeGreaterThanOrEqual(stoppedAt);
      } finally {
        await node.dispose();
      }
    },
  );
});

describe('reports after an erasure', () => {
  it("no longer count the erased customer's chats, answers or ratings", async () => {
    const { chatId, clientId } = await customerChat('counted-then-erased', 'Can you help?');
    await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Sure.' }, agent.token);
    await t.api.post(`/api/v1/chats/${chatId}/close`, {}, agent.token);
    const before = await report();
    const annBefore = before.by_agent.find((a: { agent_id: number }) => a.agent_id === agent.id).chats as number;
    expect((await t.api.delete(`/api/v1/channels/${channel.id}/clients/${encodeURIComponent(clientId)}`, ADMIN_TOKEN)).status).toBe(204);
    const after = await report();
    expect(after.chats).toBe(before.chats - 1);
    expect(after.by_day.at(-1).chats).toBe(before.by_day.at(-1).chats - 1);
    expect(after.by_agent.find((a: { agent_id: number }) => a.agent_id === agent.id)?.chats ?? 0).toBe(annBefore - 1);
  });
});

describe("agents' consoles", () => {
  it("hear which chats an erasure removed, so they drop them; another channel's agent hears nothing", async () => {
    const first = await customerChat('told-agents', 'First question');
    await t.api.post(`/api/v1/chats/${first.chatId}/close`, {}, agent.token);
    const second = await customerChat('told-agents', 'Second question');
    const stranger = await createAgent(t.api, { name: 'Stranger' });
    await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [stranger.id] });
    const connect = async (token: string) => {
      const socket: Socket<AgentServerEvents> = io(`${t.base}${AGENT_NAMESPACE}`, {
        auth: { token },
        transports: ['websocket'],
        reconnection: false,
      });
      await new Promise((resolve) => socket.once('connect', () => resolve(undefined)));
      return socket;
    };
    const [ours, theirs] = [await connect(agent.token), await connect(stranger.token)];
    const heard: number[][] = [];
    const strangerHeard: number[][] = [];
    ours.on('chats:erased', ({ chat_ids }) => heard.push(chat_ids));
    theirs.on('chats:erased', ({ chat_ids }) => strangerHeard.push(chat_ids));

    expect((await t.api.delete(`/api/v1/channels/${channel.id}/clients/${encodeURIComponent(first.clientId)}`, ADMIN_TOKEN)).status).toBe(
      204,
    );
    await expect.poll(() => heard).toEqual([[first.chatId, second.chatId]]);
    expect(strangerHeard).toEqual([]);
    ours.disconnect();
    theirs.disconnect();
  });
});

describe('an erased widget visitor', () => {
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((s) => s.disconnect()));
  /** A tab of the visitor's browser: the widget's socket, with the token the browser kept (or none). */
  async function tab(widgetId: string, token?: string) {
    const socket = io(`${t.base}${VISITOR_NAMESPACE}`, {
      auth: { widget_id: widgetId, ...(token ? { visitor_token: token } : {}) },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    });
    sockets.push(socket);
    const session = await new Promise<WidgetSession>((resolve, reject) => {
      socket.once('session', resolve);
      socket.once('connect_error', reject);
    });
    return { socket, session };
  }

  it('loses its open tabs at once, and its old token starts a new visitor with nothing of the old chat', async () => {
    const widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Erase shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
    const first = await tab(widget.public_id);
    const second = await tab(widget.public_id, first.session.visitor_token);
    const sent = (await first.socket.emitWithAck('message:send', { client_msg_id: 'erase-tab-1', text: 'Please forget me' })) as {
      value: { chat_id: number };
    };
    expect(sent).toMatchObject({ ok: true });
    const chat = (await t.api.get(`/api/v1/chats/${sent.value.chat_id}`, agent.token)).body.chat;
    const bothGone = Promise.all([first, second].map(({ socket }) => new Promise((resolve) => socket.once('disconnect', resolve))));

    const erased = await t.api.delete(`/api/v1/channels/${widget.id}/clients/${encodeURIComponent(chat.client.id)}`, ADMIN_TOKEN);
    expect(erased.status).toBe(204);
    await bothGone;

    const back = await tab(widget.public_id, first.session.visitor_token);
    expect(back.session.visitor_id).not.toBe(first.session.visitor_id);
    expect(back.session.visitor_token).not.toBe(first.session.visitor_token);
    expect(back.session.chat).toBeNull();
  });
});

describe('retention_days', () => {
  it('erases closed chats older than the retention and never an open one, tells the agents and leaves the reports', async () => {
    const closed = await customerChat('old-closed', 'Old question');
    await t.api.post(`/api/v1/chats/${closed.chatId}/close`, {}, agent.token);
    const open = await customerChat('still-open', 'Still waiting');
    const socket: Socket<AgentServerEvents> = io(`${t.base}${AGENT_NAMESPACE}`, {
      auth: { token: agent.token },
      transports: ['websocket'],
      reconnection: false,
    });
    await new Promise((resolve) => socket.once('connect', () => resolve(undefined)));
    const heard: number[] = [];
    socket.on('chats:erased', ({ chat_ids }) => heard.push(...chat_ids));
    const before = (await report()).chats;

    const patched = await t.api.patch(`/api/v1/channels/${channel.id}`, { retention_days: 0.00001 }, ADMIN_TOKEN);
    expect(patched.body.retention_days).toBe(0.00001);
    await expect.poll(async () => (await t.api.get(`/api/v1/chats/${closed.chatId}`, agent.token)).status, { timeout: 5000 }).toBe(404);
    expect((await t.api.get(`/api/v1/chats/${open.chatId}`, agent.token)).status).toBe(200);
    await expect.poll(() => heard).toContain(closed.chatId);
    expect(heard).not.toContain(open.chatId);
    socket.disconnect();
    expect((await report()).chats).toBe(before - new Set(heard).size);
    const log = await t.api.get('/api/v1/erasures', ADMIN_TOKEN);
    expect(log.body.erasures.find((e: { reason: string }) => e.reason === 'retention')).toMatchObject({
      channel_id: channel.id,
      state: 'complete',
      completed_at: expect.any(String),
    });
    expect((await t.api.patch(`/api/v1/channels/${channel.id}`, { retention_days: null }, ADMIN_TOKEN)).body.retention_days).toBeNull();
  });

  it('refuses a retention that is not a positive number', async () => {
    for (const bad of [-1, 0, 'ten']) {
      const res = await t.api.patch(`/api/v1/channels/${channel.id}`, { retention_days: bad }, ADMIN_TOKEN);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('retention_days');
    }
  });
});
