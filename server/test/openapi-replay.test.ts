import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/openapi/openapi-document.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { openApiChecker } from './support/openapi-check.ts';
import { ADMIN_TOKEN, startTestServer, type ApiResponse, type TestServer } from './support/test-server.ts';

// Real requests against a real server; each request body and each answer is checked against the schemas
// that GET /api/openapi.json gives for its operation, as a client generated from the document would read them.

type Fake = Awaited<ReturnType<typeof startFakeIntegrator>>;
let t: TestServer;
let integrator: Fake;
let provider: Fake;
let siteOwner: Fake;
let check: ReturnType<typeof openApiChecker>;

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  provider = await startFakeIntegrator();
  siteOwner = await startFakeIntegrator();
  check = openApiChecker((await t.api.get('/api/openapi.json')).body as OpenApiDocument);
});
afterAll(async () => {
  await t.dispose();
  await Promise.all([integrator.close(), provider.close(), siteOwner.close()]);
});

/**
 * Sends the request and expects it, and the answer, to conform to the document; answers the response. A request
 * sent `invalid` on purpose must be one the document refuses too.
 */
async function replay(
  method: string,
  path: string,
  options: { token?: string; body?: unknown; invalid?: true; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const refused = check.request(method, path, options.body);
  if (options.invalid) expect(refused).not.toEqual([]);
  else expect(refused).toEqual([]);
  const res = await t.api.request(method, path, options);
  const type = res.headers.get('content-type') ?? '';
  // The client reads any body as JSON when it can; a text answer is checked as the text it is.
  const body = type.startsWith('application/json') || res.body === undefined ? res.body : String(res.body);
  expect(check.response(method, path, res.status, body, type || undefined)).toEqual([]);
  return res;
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition()).toBe(true);
};

/** What the steps below share, in order: each builds on the one before. */
const state = { agentToken: '', agentId: 0, channelId: 0, endpoint: '', chatId: 0 };

describe('requests replayed against the document', () => {
  it('admin API: agents and Chat API channel create, read, change, list', async () => {
    const agent = await replay('POST', '/api/v1/agents', {
      token: ADMIN_TOKEN,
      body: { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' },
    });
    expect(agent.status).toBe(201);
    state.agentId = agent.body.id;
    await replay('GET', '/api/v1/agents', { token: ADMIN_TOKEN });
    const channel = await replay('POST', '/api/v1/channels', {
      token: ADMIN_TOKEN,
      body: { kind: 'chat_api', name: 'App', webhook_url: integrator.url, agent_ids: [state.agentId] },
    });
    expect(channel.status).toBe(201);
    state.channelId = channel.body.id;
    state.endpoint = new URL(channel.body.endpoint).pathname;
    expect((await replay('GET', `/api/v1/channels/${state.channelId}`, { token: ADMIN_TOKEN })).status).toBe(200);
    expect(
      (await replay('PATCH', `/api/v1/channels/${state.channelId}`, { token: ADMIN_TOKEN, body: { name: 'Shop app' } })).body.name,
    ).toBe('Shop app');
    expect((await replay('GET', '/api/v1/channels', { token: ADMIN_TOKEN })).body.channels).toHaveLength(1);
  });

  it('agent API: login and presence; Chat API: status, typing and messages', async () => {
    const login = await replay('POST', '/api/v1/auth/login', { body: { email: 'ada@example.com', password: 'correct horse battery' } });
    state.agentToken = login.body.token;
    await replay('PUT', '/api/v1/me/presence', { token: state.agentToken, body: { status: 'online' } });
    expect(String((await replay('GET', `${state.endpoint}/status`)).body)).toBe('1');
    await replay('POST', state.endpoint, { body: { sender: { id: 42 }, message: { type: 'typein' } } });
    for (const text of ['Hello', 'Is the blue one in stock?', 'Size 42']) {
      const sent = await replay('POST', state.endpoint, {
        body: {
          sender: { id: 42, name: 'Bo', email: 'bo@example.com', url: 'https://shop.example/p/1' },
          message: { type: 'text', id: text, text },
        },
      });
      state.chatId = sent.body.chat_id;
    }
    await replay('POST', state.endpoint, {
      body: { sender: { id: 42 }, message: { type: 'photo', file: 'https://cdn.example/p.png', file_size: '2048', width: 64 } },
    });
  });

  it('agent API: the chat list and messages, a page at a time, a reply and the chat tools', async () => {
    const { agentToken: token, chatId } = state;
    const chats = await replay('GET', '/api/v1/chats?state=open&limit=1', { token });
    expect(chats.body.total).toBe(1);
    await replay('GET', `/api/v1/chats/${chatId}`, { token });
    const page = await replay('GET', `/api/v1/chats/${chatId}/messages?limit=2`, { token });
    expect(page.body.messages).toHaveLength(2);
    const older = await replay('GET', `/api/v1/chats/${chatId}/messages?limit=2&before=${page.body.next}`, { token });
    expect(older.body.messages).toHaveLength(2);
    await replay('GET', `/api/v1/chats/${chatId}/messages`, { token });
    await replay('POST', `/api/v1/chats/${chatId}/accept`, { token });
    await replay('POST', `/api/v1/chats/${chatId}/typing`, { token, body: { state: 'start' } });
    expect((await replay('POST', `/api/v1/chats/${chatId}/messages`, { token, body: { type: 'text', text: 'Yes, it is.' } })).status).toBe(
      201,
    );
    await replay('POST', `/api/v1/chats/${chatId}/notes`, { token, body: { text: 'VIP customer' } });
    await replay('POST', `/api/v1/canned-replies`, { token, body: { shortcut: 'hi', text: 'Hello! How can I help?' } });
    await replay('GET', `/api/v1/canned-replies`, { token });
    await replay('GET', `/api/v1/chats/${chatId}/history`, { token });
    await replay('GET', `/api/v1/me`, { token });
    await replay('POST', `/api/v1/chats/${chatId}/close`, { token, body: {} });
    await replay('GET', '/api/v1/chats?state=closed', { token });
  });

  it('webhooks: what the integrator receives conforms to chat-api-message', async () => {
    await until(() => integrator.received.some((r) => r.body?.message?.type === 'text'));
    expect(integrator.received.length).toBeGreaterThan(0);
    for (const r of integrator.received) expect(check.webhook('chat-api-message', r.body)).toEqual([]);
  });

  it('Bot API: the events a provider receives, and its answer', async () => {
    const created = await replay('POST', '/api/v1/bot-providers', {
      token: ADMIN_TOKEN,
      body: { name: 'FAQ', endpoint: `${provider.url}/hook` },
    });
    const providerId = created.body.provider_id as string;
    const channel = await replay('POST', '/api/v1/channels', {
      token: ADMIN_TOKEN,
      body: { kind: 'chat_api', name: 'Bot app', webhook_url: integrator.url, agent_ids: [state.agentId] },
    });
    await replay('PATCH', `/api/v1/channels/${channel.body.id}`, {
      token: ADMIN_TOKEN,
      body: { bot: { provider_id: providerId, token: 'tok-1' } },
    });
    const endpoint = new URL(channel.body.endpoint).pathname;
    const sent = await replay('POST', endpoint, {
      body: { sender: { id: 'c-7', name: 'Cy' }, message: { type: 'text', text: 'Opening hours?' } },
    });
    await until(() => provider.received.some((r) => r.body?.event === 'CLIENT_MESSAGE'));
    const answer = await replay('POST', `/bot/webhooks/${providerId}/tok-1`, {
      body: {
        event: 'BOT_MESSAGE',
        chat_id: sent.body.chat_id,
        message: { type: 'BUTTONS', title: 'We open at 9', buttons: [{ text: 'Thanks' }] },
      },
    });
    expect(answer.body).toEqual({ result: 'ok' });
    await replay('POST', `/bot/webhooks/${providerId}/tok-1`, { body: { event: 'INVITE_AGENT', chat_id: sent.body.chat_id } });
    await replay('GET', `/api/v1/chats/${sent.body.chat_id}/bot-events`, { token: ADMIN_TOKEN });
    await replay('POST', `/api/v1/chats/${sent.body.chat_id}/accept`, { token: state.agentToken });
    await until(() => provider.received.some((r) => r.body?.event === 'AGENT_JOINED'));
    for (const r of provider.received) expect(check.webhook(`bot-${r.body.event}`, r.body)).toEqual([]);
  });

  it('widget: an offline message and the server webhook it sends, signed', async () => {
    const channel = await replay('POST', '/api/v1/channels', {
      token: ADMIN_TOKEN,
      body: { kind: 'widget', name: 'Shop', webhook_url: siteOwner.url, agent_ids: [state.agentId] },
    });
    await replay('GET', `/widget-api/${channel.body.public_id}/settings`);
    const sent = await replay('POST', `/widget-api/${channel.body.public_id}/offline-messages`, {
      body: { name: 'Di', email: 'di@example.com', message: 'Call me back' },
    });
    expect(sent.status).toBe(201);
    await until(() => siteOwner.received.length > 0);
    const hook = siteOwner.received[0]!;
    expect(hook.headers['webhook-signature']).toMatch(/^v1,/);
    expect(check.webhook(hook.body.event_name, hook.body)).toEqual([]);
  });

  it("admin API: a widget's triggers and business hours, the delivery log, reports; the agent's offline messages", async () => {
    const widget = (await t.api.get('/api/v1/channels', ADMIN_TOKEN)).body.channels.find((c: { kind: string }) => c.kind === 'widget');
    const id = widget.id as number;
    await replay('PUT', `/api/v1/channels/${id}/triggers`, {
      token: ADMIN_TOKEN,
      body: { rules: [{ id: 'welcome', conditions: { time_on_page: 20 }, action: { type: 'invite', text: 'Need a hand?' } }] },
    });
    await replay('GET', `/api/v1/channels/${id}/triggers`, { token: ADMIN_TOKEN });
    await replay('PUT', `/api/v1/channels/${id}/business-hours`, {
      token: ADMIN_TOKEN,
      body: { time_zone: 'Europe/Berlin', schedule: { mon: [{ from: '09:00', to: '17:00' }] }, holidays: ['2026-12-25'] },
    });
    await replay('GET', `/api/v1/channels/${id}/business-hours`, { token: ADMIN_TOKEN });
    const log = await replay('GET', `/api/v1/channels/${id}/deliveries?limit=5`, { token: ADMIN_TOKEN });
    expect(log.body.deliveries.length).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    await replay('GET', `/api/v1/reports?from=${today}&to=${today}`, { token: ADMIN_TOKEN });
    const csv = await replay('GET', `/api/v1/reports?from=${today}&to=${today}`, { token: ADMIN_TOKEN, headers: { accept: 'text/csv' } });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    await replay('PUT', `/api/v1/channels/${id}/appearance`, {
      token: ADMIN_TOKEN,
      body: { accent_color: '#0f766e', side: 'left', greeting: 'Hi there', texts: { de: { 'composer.send': 'Los' } } },
    });
    await replay('GET', `/api/v1/channels/${id}/appearance`, { token: ADMIN_TOKEN });
    await replay('GET', `/widget-api/${widget.public_id}/settings`);
    await replay('GET', '/api/v1/offline-messages', { token: state.agentToken });
    const found = await replay('GET', '/api/v1/search?q=hello', { token: state.agentToken });
    expect(found.body.results.length).toBeGreaterThan(0);
    await replay('GET', '/api/v1/departments', { token: state.agentToken });
  });

  it("admin API: a customer's data exported, then erased, and the record of erasures", async () => {
    await t.api.post(state.endpoint, {
      sender: { id: 'gdpr-1', name: 'Gail', email: 'gail@example.com' },
      message: { type: 'text', text: 'Delete me' },
    });
    const exported = await replay('GET', `/api/v1/channels/${state.channelId}/clients/gdpr-1/export`, { token: ADMIN_TOKEN });
    expect(exported.body.chats[0].messages.length).toBeGreaterThan(0);
    await replay('DELETE', `/api/v1/channels/${state.channelId}/clients/gdpr-1`, { token: ADMIN_TOKEN });
    const record = await replay('GET', '/api/v1/erasures', { token: ADMIN_TOKEN });
    expect(record.body.erasures[0]).toMatchObject({ client_id: 'gdpr-1', reason: 'request' });
    await replay('GET', '/api/openapi.json');
  });

  it('errors: a bad body, no token, an unknown chat, a wrong endpoint, and a delete', async () => {
    expect((await replay('POST', '/api/v1/channels', { token: ADMIN_TOKEN, body: { kind: 'chat_api' }, invalid: true })).status).toBe(400);
    expect((await replay('GET', '/api/v1/chats')).status).toBe(401);
    expect((await replay('GET', '/api/v1/chats/999999/messages', { token: state.agentToken })).status).toBe(404);
    expect((await replay('GET', '/api/v1/chats?limit=0', { token: state.agentToken })).status).toBe(400);
    expect((await t.api.post(`${state.endpoint}x`, { sender: { id: 1 }, message: { type: 'text', text: 'hi' } })).status).toBe(404);
    expect((await replay('DELETE', `/api/v1/channels/${state.channelId}`, { token: ADMIN_TOKEN })).status).toBe(204);
    expect((await replay('GET', `${state.endpoint}/status`)).status).toBe(404);
  });
});

describe('the replay check', () => {
  it('finds an answer that drifted from the document: a field of the wrong type, a missing one, one not described', async () => {
    const chat = (await t.api.get('/api/v1/chats?state=open', state.agentToken)).body.chats[0];
    expect(chat).toBeDefined();
    expect(check.response('GET', '/api/v1/chats/1', 200, { chat })).toEqual([]);
    expect(check.response('GET', '/api/v1/chats/1', 200, { chat: { ...chat, state: 'archived' } })).not.toEqual([]);
    const { client: _client, ...withoutClient } = chat;
    expect(check.response('GET', '/api/v1/chats/1', 200, { chat: withoutClient })).not.toEqual([]);
    expect(check.response('GET', '/api/v1/chats/1', 200, { chat: { ...chat, secret_field: 1 } })).not.toEqual([]);
  });

  it('finds a request the document would refuse and a status it does not list', () => {
    expect(check.request('POST', '/api/v1/chats/1/messages', { type: 'text' })).not.toEqual([]);
    expect(check.response('DELETE', '/api/v1/channels/1', 200, { ok: true })).not.toEqual([]);
    expect(check.request('POST', '/api/v1/unknown', {})).not.toEqual([]);
  });
});
