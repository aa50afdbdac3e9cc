import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PER_CHANNEL_IN_FLIGHT } from '../src/store/deliveries.ts';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator, type ReceivedRequest } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

type Fake = Awaited<ReturnType<typeof startFakeIntegrator>>;

let t: TestServer;
let provider: Fake;
let integrator: Fake;
let agent: TestAgent;
let channel: TestChannel;
let providerId: string;

const ok = () => ({ status: 200, body: {} });
const events = (name?: string) => provider.received.filter((r) => !name || r.body?.event === name);
async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}
const webhook = (token: string, body: unknown) => t.api.post(`/bot/webhooks/${providerId}/${token}`, body);
const chatOf = async (chatId: number) => (await t.api.get(`/api/v1/chats/${chatId}`, agent.token)).body.chat;
const messagesOf = async (chatId: number) => (await t.api.get(`/api/v1/chats/${chatId}/messages`, agent.token)).body.messages as any[];

async function botChat(senderId: string | number = `c-${Math.random().toString(36).slice(2)}`, text = 'Hello bot') {
  const res = await postCustomerMessage(t.api, channel.endpoint, senderId, text);
  const chatId = res.body.chat_id as number;
  await until(() => events('CLIENT_MESSAGE').find((r) => r.body.chat_id === String(chatId)), 'CLIENT_MESSAGE');
  return chatId;
}

beforeAll(async () => {
  provider = await startFakeIntegrator(ok);
  integrator = await startFakeIntegrator();
  t = await startTestServer({ SVC_BOT_TIMEOUT_MS: '200', SVC_BOT_RETRIES: '2', SVC_DELIVERY_INTERVAL_MS: '200' });
  agent = await createAgent(t.api);
  channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
  const p = await t.api.post('/api/v1/bot-providers', { name: 'FAQ Bot', endpoint: `${provider.url}/hook` }, ADMIN_TOKEN);
  providerId = p.body.provider_id;
  await t.api.patch(`/api/v1/channels/${channel.id}`, { bot: { provider_id: providerId, token: 'tok-1' } }, ADMIN_TOKEN);
});
afterAll(async () => {
  await t.dispose();
  await provider.close();
  await integrator.close();
});
beforeEach(() => provider.setResponder(ok));

describe('bot api: service to provider', () => {
  it('sends every client message of a bot chat as CLIENT_MESSAGE to <endpoint>/<token>, and keeps the chat out of the queue', async () => {
    const chatId = await botChat(42, 'Where is my order?');
    const req = events('CLIENT_MESSAGE').find((r) => r.body.chat_id === String(chatId))!;
    expect(req.path).toBe('/hook/tok-1');
    expect(req.body).toEqual({
      event: 'CLIENT_MESSAGE',
      id: expect.stringMatching(/^evt_/),
      site_id: channel.public_id,
      client_id: '42',
      chat_id: String(chatId),
      agents_online: false,
      sender: { id: '42', name: null, url: null, has_contacts: false },
      channel: { id: channel.public_id, type: 'chat_api' },
      message: { type: 'TEXT', text: 'Where is my order?', timestamp: expect.any(Number) },
    });
    expect(Math.abs(req.body.message.timestamp - Date.now() / 1000)).toBeLessThan(60);
    const bot = (await t.api.get('/api/v1/chats?state=bot', agent.token)).body.chats.map((c: any) => c.id);
    const open = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.map((c: any) => c.id);
    expect(bot).toContain(chatId);
    expect(open).not.toContain(chatId);
  });

  it('sends what providers written for the original service read: the customer as sender, whether an agent is online, the channel', async () => {
    const sender = { name: 'Ann Lee', url: 'https://shop.example/cart', email: 'ann@example.com' };
    const res = await postCustomerMessage(t.api, channel.endpoint, 'ann-1', 'Is this in stock?', sender);
    const chatId = res.body.chat_id as number;
    const first = await until(() => events('CLIENT_MESSAGE').find((r) => r.body.chat_id === String(chatId)), 'CLIENT_MESSAGE');
    expect(first.body).toMatchObject({
      site_id: channel.public_id,
      agents_online: false,
      sender: { id: 'ann-1', name: 'Ann Lee', url: 'https://shop.example/cart', has_contacts: true },
      channel: { id: channel.public_id, type: 'chat_api' },
    });

    await t.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);
    try {
      await postCustomerMessage(t.api, channel.endpoint, 'ann-1', 'Anyone there?');
      const second = await until(
        () => events('CLIENT_MESSAGE').find((r) => r.body.chat_id === String(chatId) && r.body.message.text === 'Anyone there?'),
        'second CLIENT_MESSAGE',
      );
      expect(second.body.agents_online).toBe(true);
      await t.api.post(`/api/v1/chats/${chatId}/accept`, undefined, agent.token);
      const joined = await until(() => events('AGENT_JOINED').find((r) => r.body.chat_id === String(chatId)), 'AGENT_JOINED');
      expect(joined.body).toMatchObject({
        agents_online: true,
        sender: { id: String(agent.id), name: agent.name },
        site_id: channel.public_id,
      });
      await t.api.post(`/api/v1/chats/${chatId}/close`, {}, agent.token);
      const closed = await until(() => events('CHAT_CLOSED').find((r) => r.body.chat_id === String(chatId)), 'CHAT_CLOSED');
      expect(closed.body).toMatchObject({ sender: { id: 'ann-1', name: 'Ann Lee', has_contacts: true }, channel: { type: 'chat_api' } });
    } finally {
      await t.api.put('/api/v1/me/presence', { status: 'offline' }, agent.token);
    }
  });

  it('retries a failing provider with the same event id, then hands the chat to the agents', async () => {
    provider.setResponder(() => ({ status: 503 }));
    const before = provider.received.length;
    const res = await postCustomerMessage(t.api, channel.endpoint, 'retry-me', 'anyone?');
    const chatId = res.body.chat_id;
    await until(async () => (await chatOf(chatId)).state === 'open', 'hand-over');
    const tries = provider.received.slice(before).filter((r) => r.body.chat_id === String(chatId));
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.body.id)).size).toBe(1);
    const texts = (await messagesOf(chatId)).map((m) => `${m.author}: ${m.text}`);
    expect(texts).toContain('system: The bot did not answer; the conversation went to an agent.');
  });

  it('processes a BOT_MESSAGE answered in-line to CLIENT_MESSAGE', async () => {
    provider.setResponder((r: ReceivedRequest) => ({
      status: 200,
      body: {
        event: 'BOT_MESSAGE',
        id: 1,
        chat_id: Number(r.body.chat_id),
        message: { type: 'TEXT', text: 'In-line answer', timestamp: '1700000000' },
      },
    }));
    const chatId = await botChat();
    await until(async () => (await messagesOf(chatId)).find((m) => m.author === 'bot'), 'bot message');
    const sentToApp = await until(() => integrator.received.find((r) => r.body.message.text === 'In-line answer'), 'delivery to the app');
    expect(sentToApp.body.sender).toEqual({ name: 'FAQ Bot' });
  });

  it('sends the next client message with the token an admin just set, and hands the chat over once the bot is detached', async () => {
    const own = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
    const attach = (token: string) => t.api.patch(`/api/v1/channels/${own.id}`, { bot: { provider_id: providerId, token } }, ADMIN_TOKEN);
    const sentTo = (text: string) => until(() => events('CLIENT_MESSAGE').find((r) => r.body.message.text === text)?.path, text);
    expect((await attach('tok-before')).status).toBe(200);
    const first = await postCustomerMessage(t.api, own.endpoint, 'token-change', 'first');
    expect(await sentTo('first')).toBe('/hook/tok-before');

    expect((await attach('tok-after')).status).toBe(200);
    const second = await postCustomerMessage(t.api, own.endpoint, 'token-change', 'second');
    expect(second.body.chat_id).toBe(first.body.chat_id);
    expect(await sentTo('second')).toBe('/hook/tok-after');

    expect((await t.api.patch(`/api/v1/channels/${own.id}`, { bot: null }, ADMIN_TOKEN)).status).toBe(200);
    await postCustomerMessage(t.api, own.endpoint, 'token-change', 'third');
    await until(async () => (await chatOf(first.body.chat_id)).state === 'open', 'hand-over');
    expect(events('CLIENT_MESSAGE').some((r) => r.body.message.text === 'third')).toBe(false);
    const texts = (await messagesOf(first.body.chat_id)).map((m) => `${m.author}: ${m.text}`);
    expect(texts).toContain('system: The bot is no longer attached; the conversation went to an agent.');
  });
});

describe('bot api: provider to service', () => {
  it('answers 401 invalid_client to a wrong token or provider, 405 to an unsupported event, 400 to an unknown chat or a bad shape', async () => {
    const chatId = await botChat();
    const wrong = await webhook('nope', { event: 'BOT_MESSAGE', chat_id: String(chatId), message: { type: 'TEXT', text: 'x' } });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: 'invalid_client' } } });
    expect((await t.api.post(`/bot/webhooks/unknown/tok-1`, {})).status).toBe(401);
    expect((await webhook('tok-1', { event: 'AGENT_JOINED', chat_id: String(chatId) })).status).toBe(405);
    const unknownChat = await webhook('tok-1', { event: 'BOT_MESSAGE', chat_id: '999999', message: { type: 'TEXT', text: 'x' } });
    expect(unknownChat).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    expect((await webhook('tok-1', { event: 'BOT_MESSAGE', chat_id: String(chatId), message: { type: 'VIDEO' } })).status).toBe(400);
  });

  it('refuses a fourth button with 400 invalid_request', async () => {
    const chatId = await botChat();
    const buttons = [1, 2, 3, 4].map((n) => ({ text: `Option ${n}`, id: `o${n}` }));
    const res = await webhook('tok-1', { event: 'BOT_MESSAGE', chat_id: chatId, message: { type: 'BUTTONS', title: 'Pick', buttons } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/at most 3 buttons/);
  });

  it('gives a Chat API app the text fallback of MARKDOWN and BUTTONS, and marks one without a fallback as not sent', async () => {
    const chatId = await botChat('fallbacks');
    const before = integrator.received.length;
    await webhook('tok-1', {
      event: 'BOT_MESSAGE',
      chat_id: String(chatId),
      message: { type: 'MARKDOWN', content: '**Hi** [docs](https://x.example)', text: 'Hi, see docs' },
    });
    await webhook('tok-1', {
      event: 'BOT_MESSAGE',
      chat_id: String(chatId),
      message: { type: 'BUTTONS', title: 'Pick one', buttons: [{ text: 'Yes' }, { text: 'No' }] },
    });
    await until(() => integrator.received.length > before, 'fallback delivery');
    const msgs = await until(async () => {
      const m = await messagesOf(chatId);
      return m.filter((x) => x.author === 'bot').length === 2 ? m : undefined;
    }, 'bot messages');
    expect(integrator.received.slice(before).map((r) => r.body.message)).toEqual([
      { type: 'text', id: expect.any(String), text: 'Hi, see docs' },
    ]);
    const buttons = msgs.find((m) => m.type === 'buttons');
    expect(buttons).toMatchObject({ delivery: 'failed', title: 'Pick one', buttons: [{ text: 'Yes' }, { text: 'No' }] });
    expect(buttons.error).toMatch(/cannot show BUTTONS/);
  });

  it('answers INVITE_AGENT with AGENT_UNAVAILABLE when nobody is online, and hands over when an agent is', async () => {
    const chatId = await botChat('invite');
    expect((await webhook('tok-1', { event: 'INVITE_AGENT', id: 'i1', client_id: 'invite', chat_id: String(chatId) })).status).toBe(200);
    const unavailable = await until(() => events('AGENT_UNAVAILABLE').find((r) => r.body.chat_id === String(chatId)), 'AGENT_UNAVAILABLE');
    expect(unavailable.body).toEqual({
      event: 'AGENT_UNAVAILABLE',
      id: expect.any(String),
      site_id: channel.public_id,
      client_id: 'invite',
      chat_id: String(chatId),
      agents_online: false,
      sender: { id: 'invite', name: null, url: null, has_contacts: false },
      channel: { id: channel.public_id, type: 'chat_api' },
    });
    expect((await chatOf(chatId)).state).toBe('bot');

    await t.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);
    try {
      await webhook('tok-1', { event: 'INVITE_AGENT', chat_id: String(chatId) });
      expect((await chatOf(chatId)).state).toBe('open');
      await t.api.post(`/api/v1/chats/${chatId}/accept`, undefined, agent.token);
      const joined = await until(() => events('AGENT_JOINED').find((r) => r.body.chat_id === String(chatId)), 'AGENT_JOINED');
      expect(joined.body).toMatchObject({ client_id: 'invite' });
      // From then on the bot no longer hears the client.
      const count = events('CLIENT_MESSAGE').length;
      await postCustomerMessage(t.api, channel.endpoint, 'invite', 'thanks, human');
      await new Promise((r) => setTimeout(r, 200));
      expect(events('CLIENT_MESSAGE')).toHaveLength(count);
    } finally {
      await t.api.put('/api/v1/me/presence', { status: 'offline' }, agent.token);
    }
  });

  it('tells the bot AGENT_JOINED when an agent takes a chat from "with bot", and CHAT_CLOSED (a 405 is final) when it closes', async () => {
    const chatId = await botChat('take');
    await t.api.post(`/api/v1/chats/${chatId}/accept`, undefined, agent.token);
    await until(() => events('AGENT_JOINED').find((r) => r.body.chat_id === String(chatId)), 'AGENT_JOINED');
    provider.setResponder((r) => (r.body.event === 'CHAT_CLOSED' ? { status: 405 } : ok()));
    await t.api.post(`/api/v1/chats/${chatId}/close`, {}, agent.token);
    await until(() => events('CHAT_CLOSED').find((r) => r.body.chat_id === String(chatId)), 'CHAT_CLOSED');
    await new Promise((r) => setTimeout(r, 500));
    expect(events('CHAT_CLOSED').filter((r) => r.body.chat_id === String(chatId))).toHaveLength(1);
    const log = await t.api.get(`/api/v1/chats/${chatId}/bot-events`, ADMIN_TOKEN);
    expect(log.body.sent.map((e: any) => e.event)).toEqual(['CLIENT_MESSAGE', 'AGENT_JOINED', 'CHAT_CLOSED']);
    expect(log.body.sent[2]).toMatchObject({ state: 'failed', attempts: [{ status: 405 }] });
  });

  it('lets an agent who writes in a bot chat take it over (AGENT_JOINED), and sends CHAT_CLOSED once even if the client is unblocked later', async () => {
    const chatId = await botChat('writer');
    await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Hi, a person here' }, agent.token);
    expect(await chatOf(chatId)).toMatchObject({ state: 'open', assigned_agent_id: agent.id });
    await until(() => events('AGENT_JOINED').find((r) => r.body.chat_id === String(chatId)), 'AGENT_JOINED');
    await t.api.post(`/api/v1/chats/${chatId}/close`, { blacklist: true }, agent.token);
    await until(() => events('CHAT_CLOSED').find((r) => r.body.chat_id === String(chatId)), 'CHAT_CLOSED');
    await t.api.delete(`/api/v1/chats/${chatId}/blacklist`, agent.token);
    await new Promise((r) => setTimeout(r, 300));
    expect(events('CHAT_CLOSED').filter((r) => r.body.chat_id === String(chatId))).toHaveLength(1);
  });

  it('treats a blank fallback as none', async () => {
    const chatId = await botChat('blank');
    await webhook('tok-1', { event: 'BOT_MESSAGE', chat_id: String(chatId), message: { type: 'MARKDOWN', content: '*hi*', text: '  ' } });
    const m = await until(async () => (await messagesOf(chatId)).find((x) => x.author === 'bot'), 'bot message');
    expect(m).toMatchObject({ type: 'markdown', delivery: 'failed' });
  });

  it('keeps a log of what the provider sent, per chat, for admins', async () => {
    const chatId = await botChat('logged');
    await webhook('tok-1', { event: 'BOT_MESSAGE', id: 7, chat_id: chatId, message: { type: 'TEXT', text: 'logged answer' } });
    const log = await t.api.get(`/api/v1/chats/${chatId}/bot-events`, ADMIN_TOKEN);
    expect(log.body.received).toEqual([expect.objectContaining({ event: 'BOT_MESSAGE', status: 200 })]);
    expect(log.body.sent[0]).toMatchObject({ event: 'CLIENT_MESSAGE', state: 'delivered', attempts: [{ status: 200 }] });
    expect((await t.api.get(`/api/v1/chats/${chatId}/bot-events`, agent.token)).status).toBe(401);
  });
});

describe('bot api: OAuth client credentials (spec 5.3)', () => {
  it('fetches a token, sends it to the provider, and accepts /providers/... only with a token it holds', async () => {
    const tokenServer = await startFakeIntegrator(() => ({ status: 200, body: { access_token: 'at-123', expires_in: 3600 } }));
    const secured = await startFakeIntegrator(ok);
    try {
      const p = await t.api.post(
        '/api/v1/bot-providers',
        {
          name: 'Secure Bot',
          endpoint: secured.url,
          auth: { token_url: `${tokenServer.url}/token`, client_id: 'cid', client_secret: 'sec' },
        },
        ADMIN_TOKEN,
      );
      const ch = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
      await t.api.patch(`/api/v1/channels/${ch.id}`, { bot: { provider_id: p.body.provider_id, token: 'sec-tok' } }, ADMIN_TOKEN);
      const res = await postCustomerMessage(t.api, ch.endpoint, 'oauth', 'hi');
      await secured.waitFor(1);
      expect(secured.received[0]!.headers.authorization).toBe('Bearer at-123');
      expect(new URLSearchParams(tokenServer.received[0]!.raw).toString()).toBe(
        'grant_type=client_credentials&client_id=cid&client_secret=sec',
      );
      const body = { event: 'BOT_MESSAGE', chat_id: String(res.body.chat_id), message: { type: 'TEXT', text: 'secured' } };
      const path = `/bot/providers/${p.body.provider_id}/sec-tok`;
      expect((await t.api.request('POST', path, { body, token: 'at-123' })).status).toBe(200);
      const refused = await t.api.request('POST', path, { body, token: 'stolen' });
      expect(refused).toMatchObject({ status: 401, body: { error: { code: 'unauthorized_client' } } });
      expect((await t.api.request('POST', path, { body })).status).toBe(401);
      // A provider with `auth` may not fall back to the unprotected route.
      const unprotected = await t.api.post(`/bot/webhooks/${p.body.provider_id}/sec-tok`, body);
      expect(unprotected).toMatchObject({ status: 401, body: { error: { code: 'unauthorized_client' } } });
    } finally {
      await tokenServer.close();
      await secured.close();
    }
  });
});

describe('bot api: OAuth renewal', () => {
  it('renews a short-lived token before it expires and sends the new one', async () => {
    let issued = 0;
    const tokenServer = await startFakeIntegrator(() => ({ status: 200, body: { access_token: `short-${++issued}`, expires_in: 1 } }));
    const secured = await startFakeIntegrator(ok);
    try {
      const p = await t.api.post(
        '/api/v1/bot-providers',
        { name: 'Short Bot', endpoint: secured.url, auth: { token_url: tokenServer.url, client_id: 'c', client_secret: 's' } },
        ADMIN_TOKEN,
      );
      const ch = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
      await t.api.patch(`/api/v1/channels/${ch.id}`, { bot: { provider_id: p.body.provider_id, token: 'short-tok' } }, ADMIN_TOKEN);
      await postCustomerMessage(t.api, ch.endpoint, 'renew-1', 'first');
      await secured.waitFor(1);
      // 1 s lifetime: a tenth of it is the renewal margin, so after 950 ms the token counts as expiring.
      await new Promise((r) => setTimeout(r, 950));
      await postCustomerMessage(t.api, ch.endpoint, 'renew-1', 'second');
      await secured.waitFor(2);
      expect(secured.received.map((r) => r.headers.authorization)).toEqual(['Bearer short-1', 'Bearer short-2']);
    } finally {
      await tokenServer.close();
      await secured.close();
    }
  });
});

describe('bot api on a widget channel', () => {
  it('shows rich bot messages to the visitor, sends a button click with its button_id, and hands over on request', async () => {
    const { io } = await import('socket.io-client');
    const { VISITOR_NAMESPACE } = await import('@svc/protocol');
    const widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Bot shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
    await t.api.patch(`/api/v1/channels/${widget.id}`, { bot: { provider_id: providerId, token: 'tok-w' } }, ADMIN_TOKEN);
    const socket = io(`${t.base}${VISITOR_NAMESPACE}`, {
      auth: { widget_id: widget.public_id },
      transports: ['websocket'],
      reconnection: false,
    });
    try {
      await new Promise((resolve) => socket.once('session', resolve));
      const first = await socket.emitWithAck('message:send', { client_msg_id: 'bot-w-0001', text: 'hi' });
      const chatId = (await until(() => events('CLIENT_MESSAGE').find((r) => r.path === '/hook/tok-w'), 'CLIENT_MESSAGE')).body.chat_id;
      expect(first.ok).toBe(true);
      const shown = new Promise<any>((resolve) => socket.on('message:new', (m: any) => m.author === 'bot' && resolve(m)));
      const buttons = [{ text: 'Track my order', id: 'track' }, { text: 'Talk to a person' }];
      await webhook('tok-w', { event: 'BOT_MESSAGE', chat_id: chatId, message: { type: 'BUTTONS', title: 'How can I help?', buttons } });
      expect(await shown).toMatchObject({ author: 'bot', type: 'buttons', title: 'How can I help?', buttons });
      await socket.emitWithAck('message:send', { client_msg_id: 'bot-w-0002', text: 'Track my order', button_id: 'track' });
      const click = await until(() => events('CLIENT_MESSAGE').find((r) => r.path === '/hook/tok-w' && r.body.message.button_id), 'click');
      expect(click.body.message).toMatchObject({ type: 'TEXT', text: 'Track my order', button_id: 'track' });
      expect(await socket.emitWithAck('agent:request')).toEqual({ ok: true });
      expect((await chatOf(Number(chatId))).state).toBe('open');
    } finally {
      socket.disconnect();
    }
  });
});

describe('bot api on a widget channel: the visitor ends the chat', () => {
  it('tells the bot CHAT_CLOSED once when the visitor ends a chat the bot holds', async () => {
    const { io } = await import('socket.io-client');
    const { VISITOR_NAMESPACE } = await import('@svc/protocol');
    const widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Ending shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
    await t.api.patch(`/api/v1/channels/${widget.id}`, { bot: { provider_id: providerId, token: 'tok-end' } }, ADMIN_TOKEN);
    const socket = io(`${t.base}${VISITOR_NAMESPACE}`, {
      auth: { widget_id: widget.public_id },
      transports: ['websocket'],
      reconnection: false,
    });
    try {
      await new Promise((resolve) => socket.once('session', resolve));
      await socket.emitWithAck('message:send', { client_msg_id: 'bot-end-0001', text: 'hi' });
      const chatId = (await until(() => events('CLIENT_MESSAGE').find((r) => r.path === '/hook/tok-end'), 'CLIENT_MESSAGE')).body.chat_id;
      expect(await socket.emitWithAck('chat:end')).toEqual({ ok: true });
      expect((await chatOf(Number(chatId))).state).toBe('closed');
      await until(() => events('CHAT_CLOSED').find((r) => r.body.chat_id === chatId), 'CHAT_CLOSED');
      expect(await socket.emitWithAck('chat:end')).toEqual({ ok: false, error: 'no conversation to end' });
      expect(events('CHAT_CLOSED').filter((r) => r.body.chat_id === chatId)).toHaveLength(1);
    } finally {
      socket.disconnect();
    }
  });
});

describe('bot api beside a hanging integrator', () => {
  it("keeps sending the bot its chats' messages while the integrator hangs on as many of the bot's answers as it may", async () => {
    const app = await startFakeIntegrator(() => 'hang');
    const bot = await startFakeIntegrator((r) => ({
      status: 200,
      body: { event: 'BOT_MESSAGE', id: 1, chat_id: Number(r.body.chat_id), message: { type: 'TEXT', text: 'One moment' } },
    }));
    // An attempt to the integrator hangs for 10 s before it is given up.
    const server = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '10000' });
    try {
      const a = await createAgent(server.api);
      const ch = await createChatApiChannel(server.api, { webhook_url: app.url, agent_ids: [a.id] });
      const p = await server.api.post('/api/v1/bot-providers', { name: 'Echo bot', endpoint: bot.url }, ADMIN_TOKEN);
      await server.api.patch(`/api/v1/channels/${ch.id}`, { bot: { provider_id: p.body.provider_id, token: 'tok-h' } }, ADMIN_TOKEN);
      for (let i = 0; i < PER_CHANNEL_IN_FLIGHT; i++) await postCustomerMessage(server.api, ch.endpoint, `busy-${i}`, 'hi');
      // Every chat's bot answer is now stuck at the integrator: the channel's integrator has all its slots.
      await app.waitFor(PER_CHANNEL_IN_FLIGHT);
      await postCustomerMessage(server.api, ch.endpoint, 'next', 'Are you there?');
      await bot.waitFor(PER_CHANNEL_IN_FLIGHT + 1, 3000);
      expect(bot.received.at(-1)!.body.message.text).toBe('Are you there?');
    } finally {
      await app.close();
      await bot.close();
      await server.dispose();
    }
  });
});

describe('bot api fuzz', () => {
  it('answers every fuzzed provider payload with 200 or a 4xx, never a 5xx', async () => {
    const fc = (await import('fast-check')).default;
    const chatId = await botChat('fuzz');
    const anyValue = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 5 }),
      fc.object({ maxDepth: 2 }),
    );
    const message = fc.record(
      {
        type: fc.constantFrom('TEXT', 'MARKDOWN', 'BUTTONS', 'text', 'IMAGE'),
        text: anyValue,
        content: anyValue,
        title: anyValue,
        timestamp: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
        buttons: fc.oneof(fc.array(fc.record({ text: anyValue, id: anyValue }, { requiredKeys: [] }), { maxLength: 5 }), anyValue),
      },
      { requiredKeys: [] },
    );
    const event = fc.record(
      {
        event: fc.constantFrom('BOT_MESSAGE', 'INVITE_AGENT', 'CLIENT_MESSAGE', 'bogus'),
        id: anyValue,
        chat_id: fc.oneof(fc.constant(String(chatId)), fc.constant(chatId), anyValue),
        message: fc.oneof(message, anyValue),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(event, anyValue), async (body) => {
        const res = await t.api.request('POST', `/bot/webhooks/${providerId}/tok-1`, { raw: JSON.stringify(body) ?? '' });
        expect(res.status).toBeLessThan(500);
        if (res.status !== 200) expect(res.body.error.code).toMatch(/invalid_request|method_not_allowed/);
      }),
      { numRuns: 150 },
    );
  });
});
