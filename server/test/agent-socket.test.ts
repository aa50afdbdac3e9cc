import { AGENT_NAMESPACE, type AgentServerEvents } from '@svc/protocol';
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
