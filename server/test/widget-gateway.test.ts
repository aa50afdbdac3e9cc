import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;

let t: TestServer;
let agent: TestAgent;
let widget: { id: number; public_id: string };
const sockets: VisitorSocket[] = [];

async function visit(token?: string, widgetId = widget.public_id): Promise<{ socket: VisitorSocket; session: WidgetSession }> {
  const socket: VisitorSocket = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widgetId, ...(token ? { visitor_token: token } : {}) },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve, reject) => {
    socket.once('session', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, session };
}

function next<E extends keyof VisitorServerEvents>(socket: VisitorSocket, event: E) {
  return new Promise<Parameters<VisitorServerEvents[E]>[0]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(event)}`)), 5000);
    socket.once(event, ((arg: Parameters<VisitorServerEvents[E]>[0]) => {
      clearTimeout(timer);
      resolve(arg);
    }) as never);
  });
}

const send = (socket: VisitorSocket, text: string, id = `m-${Math.random().toString(36).slice(2, 12)}`) =>
  socket.emitWithAck('message:send', { client_msg_id: id, text });

beforeAll(async () => {
  t = await startTestServer();
  agent = await createAgent(t.api);
  widget = (
    await t.api.post(
      '/api/v1/channels',
      { kind: 'widget', name: 'Shop', agent_ids: [agent.id], safe_domains: ['shop.example'] },
      ADMIN_TOKEN,
    )
  ).body;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
});

describe('widget visitors', () => {
  it('refuses an unknown widget id', async () => {
    await expect(visit(undefined, 'no-such-widget')).rejects.toThrow(/not_found/);
  });

  it('gives a new visitor a token and the next visitor number, and knows it again by the token', async () => {
    const first = await visit();
    const second = await visit();
    expect(second.session.visitor_number).toBe(first.session.visitor_number + 1);
    expect(first.session.chat).toBeNull();
    const again = await visit(first.session.visitor_token);
    expect(again.session.visitor_id).toBe(first.session.visitor_id);
    expect(again.session.visitor_number).toBe(first.session.visitor_number);
    const forged = await visit('forged-token');
    expect(forged.session.visitor_id).not.toBe(first.session.visitor_id);
  });

  it("delivers a visitor message to the agent and to the visitor's other tabs, exactly once per client_msg_id", async () => {
    const tab1 = await visit();
    const tab2 = await visit(tab1.session.visitor_token);
    const echoed = next(tab2.socket, 'message:new');
    const ack = await send(tab1.socket, 'Hello from tab 1', 'msg-00000001');
    expect(ack).toMatchObject({ ok: true, value: { author: 'visitor', text: 'Hello from tab 1', client_msg_id: 'msg-00000001' } });
    expect(await echoed).toMatchObject({ text: 'Hello from tab 1' });
    const repeat = await send(tab1.socket, 'Hello from tab 1', 'msg-00000001');
    expect(repeat.ok && repeat.value!.id).toBe(ack.ok && ack.value!.id);
    const chats = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats;
    const chat = chats.find((c: any) => c.client.id === tab1.session.visitor_id);
    expect(chat).toMatchObject({ channel_kind: 'widget', client: { visitor_number: tab1.session.visitor_number } });
    expect((await t.api.get(`/api/v1/chats/${chat.id}/messages`, agent.token)).body.messages).toHaveLength(1);
    const reloaded = await visit(tab1.session.visitor_token);
    expect(reloaded.session.chat!.messages.map((m) => m.text)).toEqual(['Hello from tab 1']);
  });

  it('shows agent replies, typing and acceptance to that visitor only', async () => {
    const ann = await visit();
    const eve = await visit();
    const eveSaw: unknown[] = [];
    eve.socket.on('message:new', (m) => eveSaw.push(m));
    await send(ann.socket, 'I need help');
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find(
      (c: any) => c.client.id === ann.session.visitor_id,
    );
    const accepted = next(ann.socket, 'chat:accepted');
    await t.api.post(`/api/v1/chats/${chat.id}/accept`, undefined, agent.token);
    expect(await accepted).toEqual({ agent: { name: agent.name, photo: null } });
    const typing = next(ann.socket, 'typing');
    await t.api.post(`/api/v1/chats/${chat.id}/typing`, { state: 'start' }, agent.token);
    expect(await typing).toEqual({ state: 'start', agent: { name: agent.name } });
    const reply = next(ann.socket, 'message:new');
    const sent = await t.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'How can I help?' }, agent.token);
    expect(sent.body.message.delivery).toBe('delivered');
    expect(await reply).toMatchObject({ author: 'agent', text: 'How can I help?', agent: { name: agent.name } });
    await new Promise((r) => setTimeout(r, 100));
    expect(eveSaw).toHaveLength(0);
    const closed = next(ann.socket, 'chat:closed');
    await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, agent.token);
    expect(await closed).toEqual({ chat_id: chat.id });
  });

  it('answers setCustomData with the spec error for a non-array, and shows safe links only', async () => {
    const v = await visit();
    expect(await v.socket.emitWithAck('custom-data:set', { title: 'x' } as never)).toEqual({
      ok: false,
      error: 'Custom data must be array.',
    });
    const fields = [
      { title: 'Order', content: '<b>#42</b>', link: 'https://shop.example/orders/42' },
      { title: 'Evil', content: 'click', link: 'https://evil.example/phish' },
    ];
    expect(await v.socket.emitWithAck('custom-data:set', fields)).toEqual({ ok: true });
    expect(await v.socket.emitWithAck('contact:set', { name: 'Vera', email: 'vera@example.com' })).toEqual({ ok: true });
    await send(v.socket, 'hi');
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find(
      (c: any) => c.client.id === v.session.visitor_id,
    );
    expect(chat.client).toMatchObject({ display_name: 'Vera', email: 'vera@example.com' });
    expect(chat.client.custom_data).toEqual([
      { title: 'Order', content: '<b>#42</b>', link: 'https://shop.example/orders/42' },
      { title: 'Evil', content: 'click' },
    ]);
  });

  it("gives the agent the invitation the visitor saw as context, and opens the chat in the invitation's department", async () => {
    const sales = (await t.api.post('/api/v1/departments', { name: `Sales ${Date.now()}` }, ADMIN_TOKEN)).body;
    const v = await visit();
    expect(await v.socket.emitWithAck('invitation:shown', { text: ' ' } as never)).toEqual({ ok: false, error: 'invalid invitation' });
    const refused = await v.socket.emitWithAck('invitation:shown', { text: 'Need sizes?', department_id: 99999 });
    expect(refused).toEqual({ ok: false, error: 'department_id: no department with id 99999' });
    expect(await v.socket.emitWithAck('invitation:shown', { text: 'Looking for a gift?', department_id: sales.id })).toEqual({ ok: true });
    await send(v.socket, 'yes please');
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find(
      (c: any) => c.client.id === v.session.visitor_id,
    );
    expect(chat.client.invite).toBe('Looking for a gift?');
    expect(chat.department).toEqual({ id: sales.id, name: sales.name });
  });

  it('shows the page the visitor is on, with partial UTM data, to the agent', async () => {
    const v = await visit();
    v.socket.emit('page:view', {
      url: 'https://shop.example/cart',
      title: 'Cart',
      referrer: 'https://search.example/',
      utm: { source: 'newsletter' },
    });
    await send(v.socket, 'question about my cart');
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find(
      (c: any) => c.client.id === v.session.visitor_id,
    );
    expect(chat.client).toMatchObject({
      url: 'https://shop.example/cart',
      page_title: 'Cart',
      referrer: 'https://search.example/',
      utm: { source: 'newsletter' },
    });
    expect(chat.client.ip).toMatch(/127\.0\.0\.1/);
  });

  it('refuses invalid messages without storing them', async () => {
    const v = await visit();
    expect(await v.socket.emitWithAck('message:send', { client_msg_id: 'short', text: 'x' })).toEqual({
      ok: false,
      error: 'invalid message',
    });
    expect(await v.socket.emitWithAck('message:send', { client_msg_id: 'long-enough-id', text: 'x'.repeat(1001) })).toMatchObject({
      ok: false,
    });
    const reloaded = await visit(v.session.visitor_token);
    expect(reloaded.session.chat).toBeNull();
  });

  it('tells visitors when the channel goes online and offline', async () => {
    const v = await visit();
    expect(v.session.status).toBe('offline');
    const online = next(v.socket, 'status');
    await t.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);
    expect(await online).toEqual({ status: 'online' });
    expect((await t.api.get(`/widget-api/${widget.public_id}/settings`)).body).toMatchObject({
      widget_id: widget.public_id,
      name: 'Shop',
      status: 'online',
      callback: { result: 'fail', reason: 'Callback disabled' },
    });
    await t.api.put('/api/v1/me/presence', { status: 'offline' }, agent.token);
  });

  it('lets the visitors of a deleted channel go at once', async () => {
    const doomed = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Doomed', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
    const v = await visit(undefined, doomed.public_id);
    const gone = new Promise((resolve) => v.socket.once('disconnect', resolve));
    await t.api.delete(`/api/v1/channels/${doomed.id}`, ADMIN_TOKEN);
    await gone;
    await expect(visit(v.session.visitor_token, doomed.public_id)).rejects.toThrow(/not_found/);
  });

  it('answers the settings request of any origin, and 404 for an unknown widget', async () => {
    const res = await t.api.get(`/widget-api/${widget.public_id}/settings`);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect((await t.api.get('/widget-api/nope/settings')).status).toBe(404);
  });
});

describe("the visitor's history in pages", () => {
  it('carries the newest 50 messages and whether older exist; messages:older pages back to the first, for the own chat only', async () => {
    const tab = await visit();
    const first = await send(tab.socket, 'first words');
    const chatId = (first as { ok: true; value: { chat_id: number } }).value.chat_id;
    for (let i = 1; i <= 59; i++)
      expect((await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: `reply ${i}` }, agent.token)).status).toBe(201);

    const back = await visit(tab.session.visitor_token);
    const chat = back.session.chat!;
    expect(chat.messages).toHaveLength(50);
    expect(chat.messages.map((m) => m.text).slice(0, 2)).toEqual(['reply 10', 'reply 11']);
    expect(chat.older).toBe(true);

    const older = await back.socket.emitWithAck('messages:older', { chat_id: chatId, before: chat.messages[0]!.id });
    expect(older).toEqual({ ok: true, value: { messages: expect.any(Array), older: false } });
    const page = (older as { ok: true; value: { messages: { text: string }[] } }).value.messages;
    expect(page.map((m) => m.text)).toEqual(['first words', ...Array.from({ length: 9 }, (_, i) => `reply ${i + 1}`)]);

    const stranger = await visit();
    expect(await stranger.socket.emitWithAck('messages:older', { chat_id: chatId, before: chat.messages[0]!.id })).toEqual({
      ok: false,
      error: 'no such chat',
    });
    expect(await back.socket.emitWithAck('messages:older', { chat_id: chatId, before: 'x' } as never)).toMatchObject({ ok: false });
  });
});
