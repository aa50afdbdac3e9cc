import {
  AGENT_NAMESPACE,
  VISITOR_NAMESPACE,
  type AgentServerEvents,
  type CallbackAvailability,
  type VisitorClientEvents,
  type VisitorServerEvents,
  type WidgetSession,
} from '@svc/protocol';
import { createClient } from 'redis';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis } from '../../scripts/lib/engines.mjs';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';
import { throwawayRedis } from './support/throwaway-redis.ts';

// Issue 8: several nodes behind a load balancer share one database and one Redis. Two real servers in this
// process on one SQLite file (a PostgreSQL store will take its place) and one throw-away Redis.
const { redis, missing } = await throwawayRedis();

type AgentSocket = Socket<AgentServerEvents>;
type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;
type Handlers<M> = { [K in keyof M]: (...args: never[]) => void };
type Payload<M extends Handlers<M>, E extends keyof M> = Parameters<M[E]>[0];

let a: TestServer;
let b: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let agent: TestAgent;
let widget: { id: number; public_id: string };
let app: TestChannel;
const sockets: Socket[] = [];

async function connectAgent(node: TestServer, token: string): Promise<AgentSocket> {
  const socket: AgentSocket = io(`${node.base}${AGENT_NAMESPACE}`, { auth: { token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

async function visit(node: TestServer, token?: string): Promise<{ socket: VisitorSocket; session: WidgetSession }> {
  const socket: VisitorSocket = io(`${node.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widget.public_id, ...(token ? { visitor_token: token } : {}) },
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

/** The next event of a kind that matches, or a rejection after two seconds. */
function next<M extends Handlers<M>, E extends keyof M & string>(
  socket: Socket<M>,
  event: E,
  match: (arg: Payload<M, E>) => boolean = () => true,
): Promise<Payload<M, E>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} event reached the other node`)), 2000);
    const handler = (arg: Payload<M, E>) => {
      if (!match(arg)) return;
      clearTimeout(timer);
      socket.off(event, handler as never);
      resolve(arg);
    };
    socket.on(event, handler as never);
  });
}

const send = (socket: VisitorSocket, text: string) =>
  socket.emitWithAck('message:send', { client_msg_id: `m-${Math.random().toString(36).slice(2, 12)}`, text });

describe.skipIf(missing !== undefined)('two nodes sharing one database and one Redis', () => {
  beforeAll(async () => {
    a = await startTestServer({ SVC_REDIS_URL: redis!.url });
    b = await startTestServer({ SVC_REDIS_URL: redis!.url }, undefined, a.dbPath);
    integrator = await startFakeIntegrator();
    agent = await createAgent(a.api, { name: 'Nadia' });
    widget = (await a.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
    app = await createChatApiChannel(a.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await b?.dispose();
    await a?.dispose();
    await integrator?.close();
    await redis?.stop();
  });

  describe('an agent on node A and a widget visitor on node B', () => {
    it('the agent sees the new chat, its messages and the visitor typing live', async () => {
      const console = await connectAgent(a, agent.token);
      const { socket: visitor, session } = await visit(b);
      const chatSeen = next(console, 'chat:updated', (c) => c.client.id === session.visitor_id);
      const messageSeen = next(console, 'message:new', (m) => m.text === 'Hello from node B');
      const sent = await send(visitor, 'Hello from node B');
      expect(sent.ok).toBe(true);
      const chat = await chatSeen;
      expect(chat).toMatchObject({ channel_id: widget.id, state: 'open' });
      expect(await messageSeen).toMatchObject({ chat_id: chat.id, author: 'client' });

      const typingSeen = next(console, 'typing', (e) => e.chat_id === chat.id);
      visitor.emit('typing', { state: 'start' });
      expect(await typingSeen).toEqual({ chat_id: chat.id, author: 'client', state: 'start' });
    });

    it("the visitor receives the agent's reply sent through node A", async () => {
      const console = await connectAgent(a, agent.token);
      const { socket: visitor, session } = await visit(b);
      const chatSeen = next(console, 'chat:updated', (c) => c.client.id === session.visitor_id);
      await send(visitor, 'Anyone there?');
      const chat = await chatSeen;
      const replySeen = next(visitor, 'message:new', (m) => m.author === 'agent');
      const acceptedSeen = next(visitor, 'chat:accepted');
      const reply = await a.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Here, on node A' }, agent.token);
      expect(reply.status).toBe(201);
      expect(await replySeen).toMatchObject({ text: 'Here, on node A', agent: { name: 'Nadia' } });
      expect(await acceptedSeen).toEqual({ agent: { name: 'Nadia', photo: null } });
    });

    it("the agent sees its presence changed through node B's API", async () => {
      const console = await connectAgent(a, agent.token);
      const presenceSeen = next(console, 'presence', (e) => e.agent.id === agent.id && e.agent.status === 'online');
      const statusSeen = next(console, 'channel:status', (e) => e.channel_id === widget.id);
      expect((await b.api.put('/api/v1/me/presence', { status: 'online' }, agent.token)).status).toBe(200);
      await presenceSeen;
      expect(await statusSeen).toEqual({ channel_id: widget.id, status: 1 });
    });

    it('the agent sees the delivery state of a reply that node B delivered', async () => {
      const console = await connectAgent(a, agent.token);
      const inbound = await postCustomerMessage(a.api, app.endpoint, 'across-1', 'Order status?');
      const chatId = inbound.body.chat_id as number;
      const delivered = next(console, 'message:delivery', (e) => e.chat_id === chatId && e.delivery === 'delivered');
      // Node B's worker is woken by its own enqueue; node A's sleeps until its next due row.
      const sent = await b.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Shipped' }, agent.token);
      expect(sent.status).toBe(201);
      expect(await delivered).toEqual({ chat_id: chatId, message_id: sent.body.message.id, delivery: 'delivered' });
      expect(integrator.received.some((r) => r.raw.includes('Shipped'))).toBe(true);
    });
  });

  describe('a burst of Chat API messages through node B', () => {
    it('reaches the agent on node A whole, each chat:updated after its message, in half as many stream entries as broadcasts or fewer', async () => {
      const console = await connectAgent(a, agent.token);
      const burst = Array.from({ length: 30 }, (_, i) => `burst ${i}`);
      const seen: string[] = [];
      const allSeen = new Promise<void>((resolve) => {
        console.on('message:new', (m) => {
          if (m.text?.startsWith('burst ')) seen.push(`message ${m.text}`);
        });
        console.on('chat:updated', (c) => {
          if (!c.last_message?.text?.startsWith('burst ')) return;
          seen.push(`chat ${c.last_message.text}`);
          if (seen.filter((e) => e.startsWith('chat ')).length === burst.length) resolve();
        });
      });
      const entries = createClient({ url: redis!.url });
      await entries.connect();
      const before = await entries.xLen('svc:socket.io');
      const answers = await Promise.all(burst.map((text, i) => postCustomerMessage(b.api, app.endpoint, `burst-${i}`, text)));
      expect(answers.map((r) => r.status)).toEqual(burst.map(() => 200));
      await allSeen;
      const written = (await entries.xLen('svc:socket.io')) - before;
      await entries.close();
      for (const text of burst) {
        expect(seen.indexOf(`message ${text}`)).toBeGreaterThanOrEqual(0);
        expect(seen.indexOf(`message ${text}`)).toBeLessThan(seen.indexOf(`chat ${text}`));
      }
      // Each message broadcasts twice (message:new, chat:updated), made together: they share an entry (a heartbeat
      // may add one); messages stored together share one too.
      expect(written).toBeLessThanOrEqual(burst.length + 2);
    });
  });

  describe('room changes made on one node', () => {
    it('an agent added to a channel through node B joins its room on node A, and leaves it when removed', async () => {
      const newcomer = await createAgent(a.api, { name: 'Omar' });
      const console = await connectAgent(a, newcomer.token);
      expect((await b.api.patch(`/api/v1/channels/${widget.id}`, { agent_ids: [agent.id, newcomer.id] }, ADMIN_TOKEN)).status).toBe(200);
      const { socket: visitor } = await visit(b);
      const seen = next(console, 'message:new', (m) => m.text === 'for the newcomer');
      await send(visitor, 'for the newcomer');
      await seen;

      expect((await b.api.patch(`/api/v1/channels/${widget.id}`, { agent_ids: [agent.id] }, ADMIN_TOKEN)).status).toBe(200);
      const unseen = next(console, 'message:new', (m) => m.text === 'not for the newcomer');
      await send(visitor, 'not for the newcomer');
      await expect(unseen).rejects.toThrow(/no message:new/);
    });

    it('a logout through node B ends the socket of that token on node A', async () => {
      const login = await b.api.post('/api/v1/auth/login', { email: agent.email, password: agent.password });
      const console = await connectAgent(a, login.body.token);
      const ended = new Promise<string>((resolve, reject) => {
        setTimeout(() => reject(new Error('the socket on node A stayed connected')), 2000);
        console.once('disconnect', resolve);
      });
      expect((await b.api.post('/api/v1/auth/logout', undefined, login.body.token)).status).toBe(204);
      expect(await ended).toBe('io server disconnect');
    });
  });

  describe('what a node keeps in memory follows changes made on another node', () => {
    it("a visitor returning to node B sees the agent's new name set through node A", async () => {
      const console = await connectAgent(a, agent.token);
      const first = await visit(b);
      const chatSeen = next(console, 'chat:updated', (c) => c.client.id === first.session.visitor_id);
      await send(first.socket, 'What is your name?');
      const chat = await chatSeen;
      await a.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Nadia here' }, agent.token);
      first.socket.disconnect();
      // Node B reads (and keeps) the agent's name for the returning visitor's history.
      const before = await visit(b, first.session.visitor_token);
      expect(before.session.chat?.messages.at(-1)).toMatchObject({ text: 'Nadia here', agent: { name: 'Nadia' } });
      before.socket.disconnect();

      expect((await a.api.patch(`/api/v1/agents/${agent.id}`, { name: 'Nadia K.' }, ADMIN_TOKEN)).status).toBe(200);
      const after = await visit(b, first.session.visitor_token);
      expect(after.session.chat?.agent).toMatchObject({ name: 'Nadia K.' });
      expect(after.session.chat?.messages.at(-1)).toMatchObject({ agent: { name: 'Nadia K.' } });
    });

    it("node B's agent API sees an agent renamed and a token logged out through node A at once", async () => {
      const renamed = await createAgent(a.api, { name: 'Omar' });
      const login = await a.api.post('/api/v1/auth/login', { email: renamed.email, password: renamed.password });
      // Node B looks the tokens up before the changes.
      expect((await b.api.get('/api/v1/me', login.body.token)).body.agent).toMatchObject({ name: 'Omar' });
      expect((await b.api.get('/api/v1/me', renamed.token)).status).toBe(200);
      // In a cluster each request reads its token: the changes hold on node B from node A's answer on.
      expect((await a.api.patch(`/api/v1/agents/${renamed.id}`, { name: 'Omar B.' }, ADMIN_TOKEN)).status).toBe(200);
      expect((await b.api.get('/api/v1/me', login.body.token)).body.agent).toMatchObject({ name: 'Omar B.' });
      expect((await a.api.post('/api/v1/auth/logout', undefined, login.body.token)).status).toBe(204);
      expect((await b.api.get('/api/v1/me', login.body.token)).status).toBe(401);
      expect((await b.api.get('/api/v1/me', renamed.token)).status).toBe(200);
    });

    it('a visitor on node B hears every change of callback availability, whichever node made it', async () => {
      // Callbacks are offered while an agent is online.
      await a.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);
      const { socket: visitor } = await visit(b);
      await new Promise((r) => setTimeout(r, 100));
      const heard: CallbackAvailability[] = [];
      visitor.on('callback', (availability) => heard.push(availability));
      const everyDay = Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '00:00', to: '23:59' }]]),
      );
      const open = { enabled: true, time_zone: 'UTC', schedule: everyDay, balance: 10 };
      const closed = { ...open, enabled: false };
      // Through A, then B, then A again: a node that remembered what it last told the socket would skip the last.
      for (const [node, callback, expected] of [
        [a, open, { result: 'ok' }],
        [b, closed, { result: 'fail', reason: 'Callback disabled' }],
        [a, open, { result: 'ok' }],
      ] as const) {
        const count = heard.length;
        expect((await node.api.patch(`/api/v1/channels/${widget.id}`, { callback }, ADMIN_TOKEN)).status).toBe(200);
        await expect.poll(() => heard.slice(count), { timeout: 2000 }).toMatchObject([expected]);
      }
    });
  });

  describe('rate limits', () => {
    it('counts failed logins on both nodes together: the eleventh failure from one address is refused, whichever node', async () => {
      const attempt = (node: TestServer) => node.api.post('/api/v1/auth/login', { email: agent.email, password: 'wrong password' });
      for (let i = 0; i < 10; i++) expect((await attempt(i % 2 === 0 ? a : b)).status).toBe(401);
      expect((await attempt(a)).status).toBe(429);
      expect((await attempt(b)).status).toBe(429);
    }, 40_000);
  });
});

describe.skipIf(missing !== undefined)('a node whose Redis went away', () => {
  it('still answers, counting rate limits in its own memory, and still shuts down at once', async () => {
    const own = await startRedis();
    const node = await startTestServer({ SVC_REDIS_URL: own.url });
    try {
      const someone = await createAgent(node.api);
      await own.stop();
      const login = await node.api.post('/api/v1/auth/login', { email: someone.email, password: 'wrong password' });
      expect(login.status).toBe(401);
      // Changes that broadcast and notify the other nodes: their messages wait in the client for Redis to return.
      const created = await node.api.post('/api/v1/channels', { kind: 'widget', name: 'Offline', agent_ids: [] }, ADMIN_TOKEN);
      expect(created.status).toBe(201);
      const callback = { enabled: false, time_zone: 'UTC', schedule: {}, balance: 0 };
      expect((await node.api.patch(`/api/v1/channels/${created.body.id}`, { callback }, ADMIN_TOKEN)).status).toBe(200);
      const started = Date.now();
      await node.stop();
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await node.dispose();
      await own.stop();
    }
  });
});
