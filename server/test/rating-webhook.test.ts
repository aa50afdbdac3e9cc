import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { startFakeIntegrator, type ReceivedRequest } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

// chat_finished of a chat the widget asks to rate waits this long for the rating (SVC_RATING_WINDOW_MS).
const WINDOW_MS = 2000;

type Owner = Awaited<ReturnType<typeof startFakeIntegrator>>;
let owner: Owner;
const sockets: Socket[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the site owner's server got for one chat (each test server numbers its chats from 1). */
const hooksOf = (chat: { id: number; widgetId: string }, name?: string): ReceivedRequest[] =>
  owner.received.filter(
    (r) => r.body?.chat_id === chat.id && r.body.widget_id === chat.widgetId && (name === undefined || r.body.event_name === name),
  );

/** A widget channel on `t` whose webhooks go to the owner, with one agent. */
async function shop(t: TestServer, events = ['chat_finished', 'chat_updated']) {
  const agent = await createAgent(t.api, { name: 'Rosa' });
  const channel = (
    await t.api.post(
      '/api/v1/channels',
      { kind: 'widget', name: 'Rated shop', agent_ids: [agent.id], webhook_url: `${owner.url}/hooks`, webhook_events: events },
      ADMIN_TOKEN,
    )
  ).body;
  return { agent, channel };
}

/** A visitor of the shop who wrote in; the chat as agents see it. */
async function visitorChat(t: TestServer, s: { agent: TestAgent; channel: any }, text = 'Do you have green tea?') {
  const socket: Socket<VisitorServerEvents, VisitorClientEvents> = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: s.channel.public_id },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  await socket.emitWithAck('message:send', { client_msg_id: `msg-${Math.random().toString(36).slice(2, 14)}`, text });
  const chat = (await t.api.get('/api/v1/chats?state=open', s.agent.token)).body.chats.find((c: any) => c.client.id === session.visitor_id);
  return { socket, chat: { ...chat, widgetId: s.channel.public_id as string } };
}

const answer = (t: TestServer, s: { agent: TestAgent }, chatId: number) =>
  t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Yes, Sencha and Gyokuro.' }, s.agent.token);

beforeAll(async () => {
  owner = await startFakeIntegrator(() => ({ status: 200, body: { result: 'ok' } }));
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await owner.close();
});

describe('chat_finished waits for the rating the widget asks for', () => {
  let t: TestServer;
  let s: Awaited<ReturnType<typeof shop>>;
  beforeAll(async () => {
    t = await startTestServer({ SVC_RATING_WINDOW_MS: String(WINDOW_MS) });
    s = await shop(t);
  });
  afterAll(async () => {
    await t.dispose();
  });

  it('carries a rating given within the window, sent once and at once rather than at the end of the window', async () => {
    const { socket, chat } = await visitorChat(t, s);
    await answer(t, s, chat.id);
    const closing = Date.now();
    expect(await socket.emitWithAck('chat:end')).toEqual({ ok: true });
    await sleep(300);
    expect(hooksOf(chat, 'chat_finished')).toHaveLength(0);

    expect(await socket.emitWithAck('chat:rate', { rate: 'positive' })).toEqual({ ok: true });
    await expect.poll(() => hooksOf(chat, 'chat_finished').length, { timeout: 5000 }).toBe(1);
    const finished = hooksOf(chat, 'chat_finished')[0]!;
    expect(finished.at - closing).toBeLessThan(WINDOW_MS);
    expect(finished.body).toMatchObject({
      event_name: 'chat_finished',
      chat_id: chat.id,
      agents: [{ id: s.agent.id, name: 'Rosa' }],
      chat: {
        rate: 'positive',
        blacklisted: false,
        messages: [
          { type: 'visitor', message: 'Do you have green tea?' },
          { type: 'agent', message: 'Yes, Sencha and Gyokuro.' },
        ],
      },
    });

    // Past the window nothing more comes; a later change of mind shows to agents only.
    await sleep(WINDOW_MS + 500);
    expect(await socket.emitWithAck('chat:rate', { rate: 'negative' })).toEqual({ ok: true });
    expect((await t.api.get(`/api/v1/chats/${chat.id}`, s.agent.token)).body.chat.rate).toBe('negative');
    await sleep(500);
    expect(hooksOf(chat, 'chat_finished')).toHaveLength(1);
  });

  it('goes with rate null once the window has passed without a rating', async () => {
    const { chat } = await visitorChat(t, s);
    await answer(t, s, chat.id);
    const closing = Date.now();
    await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, s.agent.token);
    await expect.poll(() => hooksOf(chat, 'chat_finished').length, { timeout: WINDOW_MS + 5000 }).toBe(1);
    const finished = hooksOf(chat, 'chat_finished')[0]!;
    expect(finished.at - closing).toBeGreaterThanOrEqual(WINDOW_MS);
    expect(finished.body.chat).toMatchObject({ rate: null, messages: [{ type: 'visitor' }, { type: 'agent' }] });
  });

  it('is sent at once for a chat no agent answered in, where the widget asks nothing', async () => {
    const { socket, chat } = await visitorChat(t, s, 'Anyone there?');
    const closing = Date.now();
    expect(await socket.emitWithAck('chat:end')).toEqual({ ok: true });
    await expect.poll(() => hooksOf(chat, 'chat_finished').length, { timeout: 5000 }).toBe(1);
    const finished = hooksOf(chat, 'chat_finished')[0]!;
    expect(finished.at - closing).toBeLessThan(WINDOW_MS);
    expect(finished.body.chat).toMatchObject({ rate: null, messages: [{ type: 'visitor', message: 'Anyone there?' }] });
  });

  it('is sent at once for a chat the visitor rated before it closed', async () => {
    const { socket, chat } = await visitorChat(t, s);
    await answer(t, s, chat.id);
    expect(await socket.emitWithAck('chat:rate', { rate: 'negative' })).toEqual({ ok: true });
    const closing = Date.now();
    await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, s.agent.token);
    await expect.poll(() => hooksOf(chat, 'chat_finished').length, { timeout: 5000 }).toBe(1);
    expect(hooksOf(chat, 'chat_finished')[0]!.at - closing).toBeLessThan(WINDOW_MS);
    expect(hooksOf(chat, 'chat_finished')[0]!.body.chat.rate).toBe('negative');
  });

  it("keeps the chat's webhooks in order: what is enqueued after the close waits behind the held chat_finished", async () => {
    const crmOwner = owner;
    crmOwner.setResponder((r) =>
      r.body?.event_name === 'chat_accepted'
        ? { status: 200, body: { result: 'ok', enable_assign: true, crm_link: 'https://crm.example.com/cards/9' } }
        : { status: 200, body: { result: 'ok' } },
    );
    try {
      const crm = await shop(t, ['chat_accepted', 'chat_assigned', 'chat_finished']);
      const { chat } = await visitorChat(t, crm);
      await t.api.post(`/api/v1/chats/${chat.id}/accept`, undefined, crm.agent.token);
      await expect.poll(() => hooksOf(chat, 'chat_accepted').length, { timeout: 5000 }).toBe(1);
      await expect
        .poll(async () => (await t.api.get(`/api/v1/chats/${chat.id}`, crm.agent.token)).body.chat.crm?.enable_assign, { timeout: 5000 })
        .toBe(true);
      await answer(t, crm, chat.id);
      await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, crm.agent.token);
      // The close writes its chat_finished before it answers: a server stopped now would still send it.
      const outbox = (await t.api.get(`/api/v1/channels/${crm.channel.id}/deliveries`, ADMIN_TOKEN)).body.deliveries;
      expect(outbox.map((d: any) => d.payload.event_name)).toContain('chat_finished');
      // The agent binds the CRM card after the close: chat_assigned is enqueued behind the held chat_finished.
      expect((await t.api.post(`/api/v1/chats/${chat.id}/crm-assign`, undefined, crm.agent.token)).status).toBe(200);
      await sleep(800);
      expect(hooksOf(chat).map((r) => r.body.event_name)).toEqual(['chat_accepted']);

      await expect.poll(() => hooksOf(chat).length, { timeout: WINDOW_MS + 5000 }).toBe(3);
      expect(hooksOf(chat).map((r) => r.body.event_name)).toEqual(['chat_accepted', 'chat_finished', 'chat_assigned']);
    } finally {
      owner.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
    }
  });
});

describe('the rating window', () => {
  it('is off with SVC_RATING_WINDOW_MS=0: chat_finished goes at once, and a rating after it changes only the chat', async () => {
    const t = await startTestServer({ SVC_RATING_WINDOW_MS: '0' });
    try {
      const s = await shop(t);
      const { socket, chat } = await visitorChat(t, s);
      await answer(t, s, chat.id);
      expect(await socket.emitWithAck('chat:end')).toEqual({ ok: true });
      await expect.poll(() => hooksOf(chat, 'chat_finished').length, { timeout: 5000 }).toBe(1);
      expect(hooksOf(chat, 'chat_finished')[0]!.body.chat.rate).toBeNull();
      expect(await socket.emitWithAck('chat:rate', { rate: 'positive' })).toEqual({ ok: true });
      expect((await t.api.get(`/api/v1/chats/${chat.id}`, s.agent.token)).body.chat.rate).toBe('positive');
      await sleep(800);
      expect(hooksOf(chat, 'chat_finished')).toHaveLength(1);
    } finally {
      await t.dispose();
    }
  });

  it('survives a restart of the server inside it: the held chat_finished is sent once, when the window ends', async () => {
    const window = 4000;
    let t = await startTestServer({ SVC_RATING_WINDOW_MS: String(window) });
    try {
      const s = await shop(t);
      const { socket, chat } = await visitorChat(t, s);
      await answer(t, s, chat.id);
      const closing = Date.now();
      await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, s.agent.token);
      socket.disconnect();
      // The close answers before its webhook is written (an event listener writes it): restart once it waits.
      const held = async () =>
        (await t.api.get(`/api/v1/channels/${s.channel.id}/deliveries`, ADMIN_TOKEN)).body.deliveries.map((d: any) => [
          d.payload.event_name,
          d.state,
          d.attempts.length,
        ]);
      await expect.poll(held, { timeout: 2000 }).toEqual([['chat_finished', 'pending', 0]]);
      t = await t.restart();
      // Up again with time to spare, or the test would not restart inside the window.
      expect(Date.now() - closing).toBeLessThan(window - 500);
      expect(hooksOf(chat, 'chat_finished')).toHaveLength(0);

      await expect.poll(() => hooksOf(chat, 'chat_finished').length, { timeout: window + 5000 }).toBe(1);
      expect(hooksOf(chat, 'chat_finished')[0]!.at - closing).toBeGreaterThanOrEqual(window);
      expect(hooksOf(chat, 'chat_finished')[0]!.body.chat.rate).toBeNull();
      await sleep(1000);
      expect(hooksOf(chat, 'chat_finished')).toHaveLength(1);
    } finally {
      await t.dispose();
    }
  });
});
