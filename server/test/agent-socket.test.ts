import { AGENT_NAMESPACE, VISITOR_NAMESPACE, type AgentServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';

type AgentSocket = Socket<AgentServerEvents>;

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let alice: TestAgent;
let bob: TestAgent;
let channel: TestChannel;
const sockets: AgentSocket[] = [];

async function connect(token: string): Promise<AgentSocket> {
  const socket: AgentSocket = io(`${t.base}${AGENT_NAMESPACE}`, { auth: { token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

function next<E extends keyof AgentServerEvents>(
  socket: AgentSocket,
  event: E,
  match: (arg: Parameters<AgentServerEvents[E]>[0]) => boolean = () => true,
) {
  return new Promise<Parameters<AgentServerEvents[E]>[0]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${String(event)} event`)), 5000);
    const handler = (arg: Parameters<AgentServerEvents[E]>[0]) => {
      if (!match(arg)) return;
      clearTimeout(timer);
      socket.off(event, handler as never);
      resolve(arg);
    };
    socket.on(event, handler as never);
  });
}

/** Collects every event of a kind, to show that one never arrived. */
function collect<E extends keyof AgentServerEvents>(socket: AgentSocket, event: E) {
  const seen: Parameters<AgentServerEvents[E]>[0][] = [];
  socket.on(event, ((arg: Parameters<AgentServerEvents[E]>[0]) => seen.push(arg)) as never);
  return seen;
}

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  alice = await createAgent(t.api);
  bob = await createAgent(t.api);
  channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [alice.id] });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await integrator.close();
});

describe('agents socket namespace', () => {
  it('refuses a connection without a valid agent token', async () => {
    await expect(connect('forged')).rejects.toThrow(/invalid_client/);
  });

  it('pushes new chats and messages to the agents of the channel only', async () => {
    const aliceSocket = await connect(alice.token);
    const bobSocket = await connect(bob.token);
    const bobSaw = collect(bobSocket, 'message:new');
    const chatSeen = next(aliceSocket, 'chat:updated');
    const messageSeen = next(aliceSocket, 'message:new');
    await postCustomerMessage(t.api, channel.endpoint, 'live-1', 'Is anyone there?', { name: 'Ann' });
    expect((await chatSeen).client).toMatchObject({ id: 'live-1', name: 'Ann' });
    expect(await messageSeen).toMatchObject({ author: 'client', text: 'Is anyone there?' });
    await new Promise((r) => setTimeout(r, 200));
    expect(bobSaw).toHaveLength(0);
  });

  it('ends the live connection of a token at logout', async () => {
    const login = await t.api.post('/api/v1/auth/login', { email: alice.email, password: alice.password });
    const socket = await connect(login.body.token);
    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    await t.api.post('/api/v1/auth/logout', undefined, login.body.token);
    await gone;
    await expect(connect(login.body.token)).rejects.toThrow(/invalid_client/);
  });

  it('pushes the delivery state of an agent message', async () => {
    const socket = await connect(alice.token);
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'live-2', 'hi');
    const delivered = next(socket, 'message:delivery', (e) => e.chat_id === inbound.body.chat_id);
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'yo' }, alice.token);
    expect(await delivered).toEqual({ chat_id: inbound.body.chat_id, message_id: sent.body.message.id, delivery: 'delivered' });
  });

  it('pushes an agent message and its chat exactly as the API then reads them', async () => {
    const socket = await connect(alice.token);
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'live-2b', 'hello?', { name: 'Bea' });
    const chatId = inbound.body.chat_id;
    const pushed = next(socket, 'message:new', (m) => m.chat_id === chatId && m.author === 'agent');
    const chatPushed = next(socket, 'chat:updated', (c) => c.id === chatId && c.last_message?.author === 'agent');
    const sent = await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Here, Bea' }, alice.token);
    expect(sent.status).toBe(201);
    const listed = (await t.api.get(`/api/v1/chats/${chatId}/messages`, alice.token)).body.messages;
    const stored = listed.find((m: { id: number }) => m.id === sent.body.message.id);
    expect(await pushed).toEqual({ ...stored, delivery: 'pending' });
    expect(sent.body.message).toEqual({ ...stored, delivery: 'pending' });
    expect(stored).toMatchObject({ author: 'agent', agent_name: alice.name, text: 'Here, Bea' });
    const chat = await chatPushed;
    const read = (await t.api.get(`/api/v1/chats/${chatId}`, alice.token)).body.chat;
    // The first answer made Alice the chat's agent; the pushed chat says so, with the answer as its last message.
    expect(chat.assigned_agent_id).toBe(alice.id);
    expect({ ...chat, last_message: { ...chat.last_message, delivery: read.last_message.delivery } }).toEqual(read);
  });

  it("pushes a visitor's offline message to the channel's agents as the list then shows it", async () => {
    const widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Offline shop', agent_ids: [alice.id] }, ADMIN_TOKEN))
      .body;
    const visitor = io(`${t.base}${VISITOR_NAMESPACE}`, {
      auth: { widget_id: widget.public_id },
      transports: ['websocket'],
      reconnection: false,
    });
    const session = await new Promise<WidgetSession>((resolve) => visitor.once('session', resolve));
    const socket = await connect(alice.token);
    const pushed = next(socket, 'offline:new', (m) => m.message === 'Call me back');
    const sent = await t.api.request('POST', `/widget-api/${widget.public_id}/offline-messages`, {
      body: { name: 'Nina', email: 'nina@example.com', message: 'Call me back' },
      headers: { 'x-visitor-token': session.visitor_token },
    });
    visitor.disconnect();
    expect(sent.status).toBe(201);
    const listed = (await t.api.get('/api/v1/offline-messages', alice.token)).body.offline_messages;
    const stored = listed.find((m: { id: string | number }) => String(m.id) === sent.body.offline_message_id);
    expect(stored).toMatchObject({ visitor_id: session.visitor_id, name: 'Nina', message: 'Call me back' });
    expect(await pushed).toEqual(stored);
  });

  it('pushes the client typing of a Chat API customer', async () => {
    const socket = await connect(alice.token);
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'live-3', 'hi');
    const typing = next(socket, 'typing', (e) => e.chat_id === inbound.body.chat_id);
    await t.api.post(channel.endpoint, { sender: { id: 'live-3' }, message: { type: 'typein' } });
    expect(await typing).toEqual({ chat_id: inbound.body.chat_id, author: 'client', state: 'start' });
  });

  it('pushes presence and the channel status when an agent goes online', async () => {
    const socket = await connect(alice.token);
    const status = next(socket, 'channel:status', (e) => e.channel_id === channel.id);
    await t.api.put('/api/v1/me/presence', { status: 'online' }, alice.token);
    expect(await status).toEqual({ channel_id: channel.id, status: 1 });
    await t.api.put('/api/v1/me/presence', { status: 'offline' }, alice.token);
  });

  it('starts and stops pushing a channel when its agents change, without reconnecting', async () => {
    const bobSocket = await connect(bob.token);
    await t.api.patch(`/api/v1/channels/${channel.id}`, { agent_ids: [alice.id, bob.id] }, ADMIN_TOKEN);
    const seen = next(bobSocket, 'message:new', (m) => m.text === 'for bob too');
    await postCustomerMessage(t.api, channel.endpoint, 'live-4', 'for bob too');
    await seen;
    await t.api.patch(`/api/v1/channels/${channel.id}`, { agent_ids: [alice.id] }, ADMIN_TOKEN);
    const after = collect(bobSocket, 'message:new');
    await postCustomerMessage(t.api, channel.endpoint, 'live-4', 'not for bob');
    await new Promise((r) => setTimeout(r, 200));
    expect(after).toHaveLength(0);
  });
});
