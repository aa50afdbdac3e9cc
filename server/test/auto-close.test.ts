import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIntegrator, type ReceivedRequest } from './support/fake-integrator.ts';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

// Issue 24: chats that end by themselves. A sweep every 0.2 s; a channel closes chats idle for 1.2 s.
const SWEEP = { SVC_AUTO_CLOSE_SWEEP_S: '0.2' };
const IDLE_MINUTES = 0.02;
const NOTE = 'Chat closed automatically after 1 second without a message.';

type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;
type Owner = Awaited<ReturnType<typeof startFakeIntegrator>>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sockets: Socket[] = [];
let owner: Owner;

const finishedHooks = (widgetId: string, chatId: number): ReceivedRequest[] =>
  owner.received.filter((r) => r.body?.event_name === 'chat_finished' && r.body.widget_id === widgetId && r.body.chat_id === chatId);

async function widgetShop(t: TestServer, autoClose: number | null = IDLE_MINUTES) {
  const agent = await createAgent(t.api, { name: 'Rosa' });
  const created = await t.api.post(
    '/api/v1/channels',
    { kind: 'widget', name: 'Tea shop', agent_ids: [agent.id], webhook_url: `${owner.url}/hooks`, webhook_events: ['chat_finished'] },
    ADMIN_TOKEN,
  );
  const patched = await t.api.patch(`/api/v1/channels/${created.body.id}`, { auto_close_minutes: autoClose }, ADMIN_TOKEN);
  expect(patched.status).toBe(200);
  return { agent, channel: patched.body as { id: number; public_id: string } };
}

async function visitorWrites(t: TestServer, shop: { agent: TestAgent; channel: { public_id: string } }, text = 'Hello?') {
  const socket: VisitorSocket = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: shop.channel.public_id },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  const send = (body: string) =>
    socket.emitWithAck('message:send', { client_msg_id: `msg-${Math.random().toString(36).slice(2, 14)}`, text: body });
  await send(text);
  const chats = (await t.api.get('/api/v1/chats?state=open', shop.agent.token)).body.chats as any[];
  const chatId = chats.find((c) => c.client.id === session.visitor_id).id as number;
  return { socket, chatId, send };
}

const chatOf = async (t: TestServer, agent: TestAgent, chatId: number) =>
  (await t.api.get(`/api/v1/chats/${chatId}`, agent.token)).body.chat;
const messagesOf = async (t: TestServer, agent: TestAgent, chatId: number) =>
  (await t.api.get(`/api/v1/chats/${chatId}/messages`, agent.token)).body.messages as any[];

beforeAll(async () => {
  owner = await startFakeIntegrator(() => ({ status: 200, body: { result: 'ok' } }));
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await owner.close();
});

describe('auto_close_minutes', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(SWEEP);
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('is null by default, set and cleared with PATCH, and a bad value answers 400 naming the field', async () => {
    const shop = await widgetShop(t, null);
    expect(shop.channel).toMatchObject({ auto_close_minutes: null });
    const url = `/api/v1/channels/${shop.channel.id}`;
    expect((await t.api.patch(url, { auto_close_minutes: 30 }, ADMIN_TOKEN)).body.auto_close_minutes).toBe(30);
    expect((await t.api.patch(url, { auto_close_minutes: 0.5 }, ADMIN_TOKEN)).body.auto_close_minutes).toBe(0.5);
    expect((await t.api.get(url, ADMIN_TOKEN)).body.auto_close_minutes).toBe(0.5);
    for (const bad of [0, -5, '30', true, 10_000_000]) {
      const res = await t.api.patch(url, { auto_close_minutes: bad }, ADMIN_TOKEN);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toContain('auto_close_minutes');
    }
    expect((await t.api.patch(url, { auto_close_minutes: null }, ADMIN_TOKEN)).body.auto_close_minutes).toBeNull();
  });

  it('closes a chat nobody wrote in: a system message, chat:closed to the visitor, chat_finished to the owner', async () => {
    const shop = await widgetShop(t);
    const { socket, chatId } = await visitorWrites(t, shop);
    const seen: string[] = [];
    socket.on('message:new', (m) => seen.push(`${m.author}: ${m.text}`));
    const closed = new Promise<{ chat_id: number }>((resolve) => socket.once('chat:closed', resolve));

    expect(await closed).toEqual({ chat_id: chatId });
    expect(seen).toEqual([`system: ${NOTE}`]);
    const chat = await chatOf(t, shop.agent, chatId);
    expect(chat.state).toBe('closed');
    const messages = await messagesOf(t, shop.agent, chatId);
    expect(messages.map((m) => [m.author, m.text])).toEqual([
      ['client', 'Hello?'],
      ['system', NOTE],
    ]);
    await expect.poll(() => finishedHooks(shop.channel.public_id, chatId).length, { timeout: 5000 }).toBe(1);
    await sleep(600);
    expect(finishedHooks(shop.channel.public_id, chatId)).toHaveLength(1);
  });

  it('keeps a chat open while someone keeps writing, and an answer counts as activity', async () => {
    const shop = await widgetShop(t);
    const { chatId, send } = await visitorWrites(t, shop);
    for (let i = 0; i < 4; i += 1) {
      await sleep(600);
      if (i % 2 === 0) await send(`Still there? ${i}`);
      else await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Looking it up.' }, shop.agent.token);
    }
    expect((await chatOf(t, shop.agent, chatId)).state).toBe('open');
    await expect.poll(async () => (await chatOf(t, shop.agent, chatId)).state, { timeout: 5000 }).toBe('closed');
  });

  it('leaves chats of channels without auto_close_minutes open', async () => {
    const shop = await widgetShop(t, null);
    const { chatId } = await visitorWrites(t, shop);
    await sleep(2000);
    expect((await chatOf(t, shop.agent, chatId)).state).toBe('open');
  });

  it('closes a bot chat and tells the bot CHAT_CLOSED', async () => {
    const provider = await startFakeIntegrator(() => ({ status: 200, body: {} }));
    try {
      const agent = await createAgent(t.api);
      const channel = await createChatApiChannel(t.api, { webhook_url: owner.url, agent_ids: [agent.id] });
      const p = await t.api.post('/api/v1/bot-providers', { name: 'FAQ Bot', endpoint: `${provider.url}/hook` }, ADMIN_TOKEN);
      const patch = { bot: { provider_id: p.body.provider_id, token: 'tok-1' }, auto_close_minutes: IDLE_MINUTES };
      expect((await t.api.patch(`/api/v1/channels/${channel.id}`, patch, ADMIN_TOKEN)).status).toBe(200);
      const chatId = (await postCustomerMessage(t.api, channel.endpoint, 'c-1', 'Hello bot')).body.chat_id as number;
      expect((await chatOf(t, agent, chatId)).state).toBe('bot');

      const closedEvents = () => provider.received.filter((r) => r.body?.event === 'CHAT_CLOSED' && r.body.chat_id === String(chatId));
      await expect.poll(() => closedEvents().length, { timeout: 6000 }).toBe(1);
      expect((await chatOf(t, agent, chatId)).state).toBe('closed');
      expect((await messagesOf(t, agent, chatId)).at(-1)).toMatchObject({ author: 'system', text: NOTE });
    } finally {
      await provider.close();
    }
  });
});

describe('auto-close across restarts and nodes', () => {
  it('closes after a restart a chat that went idle while the service was down', async () => {
    // A sweep far away: only the one at start can close it.
    let t = await startTestServer({ SVC_AUTO_CLOSE_SWEEP_S: '3600' });
    try {
      const shop = await widgetShop(t);
      const { socket, chatId } = await visitorWrites(t, shop);
      socket.disconnect();
      await t.stop();
      await sleep(1500);
      t = await t.restart();
      await expect.poll(async () => (await chatOf(t, shop.agent, chatId)).state, { timeout: 5000 }).toBe('closed');
      await expect.poll(() => finishedHooks(shop.channel.public_id, chatId).length, { timeout: 5000 }).toBe(1);
    } finally {
      await t.dispose();
    }
  });

  it('two nodes sweeping one database close each chat once', async () => {
    const a = await startTestServer({ SVC_AUTO_CLOSE_SWEEP_S: '0.05' });
    const b = await startTestServer({ SVC_AUTO_CLOSE_SWEEP_S: '0.05' }, undefined, a.dbPath);
    try {
      const shop = await widgetShop(a);
      const chats = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => (await visitorWrites(i % 2 ? a : b, shop, `Hello ${i}`)).chatId),
      );
      for (const chatId of chats) {
        await expect.poll(async () => (await chatOf(a, shop.agent, chatId)).state, { timeout: 6000 }).toBe('closed');
      }
      await sleep(1000);
      for (const chatId of chats) {
        const notes = (await messagesOf(a, shop.agent, chatId)).filter((m) => m.author === 'system');
        expect(notes).toHaveLength(1);
        expect(finishedHooks(shop.channel.public_id, chatId)).toHaveLength(1);
      }
    } finally {
      await b.stop();
      await a.dispose();
    }
  });
});
