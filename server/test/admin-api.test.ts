import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

describe('admin api authentication', () => {
  it.each([
    ['GET', '/api/v1/agents'],
    ['POST', '/api/v1/agents'],
    ['GET', '/api/v1/channels'],
    ['POST', '/api/v1/channels'],
    ['GET', '/api/v1/channels/1'],
    ['PATCH', '/api/v1/channels/1'],
    ['DELETE', '/api/v1/channels/1'],
    ['POST', '/api/v1/bot-providers'],
  ])('%s %s without the admin token answers 401 invalid_client', async (method, path) => {
    const body = method === 'GET' ? undefined : {};
    const res = await t.api.request(method, path, { body });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_client');
    const wrong = await t.api.request(method, path, { body, token: 'not-the-admin-token' });
    expect(wrong.status).toBe(401);
  });

  it('refuses the token of an agent that is not an admin with 401, as any token but the admin token', async () => {
    const agent = await createAgent(t.api);
    expect((await t.api.get('/api/v1/agents', agent.token)).status).toBe(401);
  });
});

describe('admin api: agents', () => {
  it('creates an agent with a working api token and lists it offline', async () => {
    const res = await t.api.post('/api/v1/agents', { name: 'Maria', email: 'Maria@Example.com', password: 'long enough pw' }, ADMIN_TOKEN);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Maria', email: 'maria@example.com', photo: null });
    expect(res.body.token).toMatch(/^[\w-]{40,}$/);
    expect(res.body).not.toHaveProperty('password');
    expect((await t.api.get('/api/v1/me', res.body.token)).status).toBe(200);
    const list = await t.api.get('/api/v1/agents', ADMIN_TOKEN);
    expect(list.body.agents).toContainEqual({
      id: res.body.id,
      name: 'Maria',
      email: 'maria@example.com',
      photo: null,
      status: 'offline',
      role: 'agent',
      active: true,
    });
  });

  it('refuses a second agent with the same e-mail in any case', async () => {
    await createAgent(t.api, { email: 'dup@example.com' });
    const res = await t.api.post('/api/v1/agents', { name: 'Dup', email: 'DUP@example.com', password: 'long enough pw' }, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/already exists/);
  });

  it.each([
    [{ email: 'a@example.com', password: 'long enough pw' }, /name/],
    [{ name: 'A', email: 'not-an-email', password: 'long enough pw' }, /email/],
    [{ name: 'A', email: 'a2@example.com', password: 'short' }, /password/],
    [{ name: 'A', email: 'a3@example.com', password: 'long enough pw', photo: 'javascript:alert(1)' }, /photo/],
  ])('answers 400 invalid_request naming the bad field for %j', async (body, field) => {
    const res = await t.api.post('/api/v1/agents', body, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(field);
  });
});

describe('admin api: channels', () => {
  it('creates a Chat API channel whose endpoint holds a random string and the public id', async () => {
    const agent = await createAgent(t.api);
    const channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id], chunked: true });
    expect(channel).toMatchObject({ kind: 'chat_api', chunked: true, agent_ids: [agent.id], webhook_url: integrator.url, status: 0 });
    expect(channel.endpoint).toBe(`${t.base}/chat-api/${channel.random_string}/${channel.public_id}`);
    expect(channel.status_url).toBe(`${channel.endpoint}/status`);
    expect(String(channel.random_string).length).toBeGreaterThanOrEqual(24);
    expect((await t.api.get(channel.status_url)).body).toBe(0);
  });

  it('creates a widget channel with an embed snippet naming its public id', async () => {
    const res = await t.api.post(
      '/api/v1/channels',
      { kind: 'widget', name: 'Shop', agent_ids: [], safe_domains: ['Shop.example.com'] },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(201);
    expect(res.body.embed).toContain(`data-svc-widget="${res.body.public_id}"`);
    expect(res.body.embed).toContain(`${t.base}/widget/loader.js`);
    expect(res.body.safe_domains).toEqual(['shop.example.com']);
  });

  it.each([
    [{ kind: 'chat_api', name: 'x', agent_ids: [] }, /webhook_url/],
    [{ kind: 'chat_api', name: 'x', webhook_url: 'ftp://example.com', agent_ids: [] }, /webhook_url/],
    [{ kind: 'chat_api', name: 'x', webhook_url: 'http://127.0.0.1:9/x', agent_ids: [99999] }, /agent_ids/],
    [{ kind: 'fax', name: 'x' }, /kind/],
    [{ kind: 'widget', name: '', agent_ids: [] }, /name/],
    [{ kind: 'widget', name: 'w', safe_domains: ['not a domain'] }, /safe_domains/],
  ])('answers 400 for %j', async (body, field) => {
    const res = await t.api.post('/api/v1/channels', body, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(field);
  });

  it('lists and reads channels with their random string', async () => {
    const channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [] });
    const list = await t.api.get('/api/v1/channels', ADMIN_TOKEN);
    expect(list.body.channels.map((c: { id: number }) => c.id)).toContain(channel.id);
    const one = await t.api.get(`/api/v1/channels/${channel.id}`, ADMIN_TOKEN);
    expect(one.body.random_string).toBe(channel.random_string);
    expect((await t.api.get('/api/v1/channels/999999', ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.get('/api/v1/channels/abc', ADMIN_TOKEN)).status).toBe(404);
  });

  it('updates name, agents and chunked, and attaches and detaches a bot', async () => {
    const a = await createAgent(t.api);
    const b = await createAgent(t.api);
    const channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [a.id] });
    const patched = await t.api.patch(`/api/v1/channels/${channel.id}`, { name: 'Renamed', agent_ids: [b.id], chunked: true }, ADMIN_TOKEN);
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', agent_ids: [b.id], chunked: true });

    const provider = await t.api.post('/api/v1/bot-providers', { name: 'Bot Co', endpoint: `${integrator.url}/bot` }, ADMIN_TOKEN);
    expect(provider.status).toBe(201);
    expect(provider.body.bot_url).toBe(`${t.base}/bot`);
    const attached = await t.api.patch(
      `/api/v1/channels/${channel.id}`,
      { bot: { provider_id: provider.body.provider_id, token: 'tok' } },
      ADMIN_TOKEN,
    );
    expect(attached.body.bot).toEqual({ provider_id: provider.body.provider_id, token: 'tok' });
    const detached = await t.api.patch(`/api/v1/channels/${channel.id}`, { bot: null }, ADMIN_TOKEN);
    expect(detached.body.bot).toBeNull();

    const unknownBot = await t.api.patch(`/api/v1/channels/${channel.id}`, { bot: { provider_id: 'nope', token: 'x' } }, ADMIN_TOKEN);
    expect(unknownBot.status).toBe(400);
    const unknownField = await t.api.patch(`/api/v1/channels/${channel.id}`, { kind: 'widget' }, ADMIN_TOKEN);
    expect(unknownField.status).toBe(400);
    expect((await t.api.patch('/api/v1/channels/999999', { name: 'x' }, ADMIN_TOKEN)).status).toBe(404);
  });

  it('deletes a channel: 204, then its endpoints and its admin reads answer 404', async () => {
    const agent = await createAgent(t.api);
    const channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
    expect((await t.api.delete(`/api/v1/channels/${channel.id}`, ADMIN_TOKEN)).status).toBe(204);
    expect((await t.api.get(`/api/v1/channels/${channel.id}`, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.delete(`/api/v1/channels/${channel.id}`, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.get(channel.status_url)).status).toBe(404);
    const post = await t.api.post(channel.endpoint, { sender: { id: 1 }, message: { type: 'text', text: 'hi' } });
    expect(post.status).toBe(404);
  });
});

describe('admin api: bot providers', () => {
  it('registers a provider with optional OAuth client credentials, never echoing the secret', async () => {
    const res = await t.api.post(
      '/api/v1/bot-providers',
      {
        name: 'Bot',
        endpoint: `${integrator.url}/hook/`,
        auth: { token_url: `${integrator.url}/token`, client_id: 'cid', client_secret: 's3cret' },
      },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(201);
    expect(res.body.endpoint).toBe(`${integrator.url}/hook`);
    expect(JSON.stringify(res.body)).not.toContain('s3cret');
    const bad = await t.api.post('/api/v1/bot-providers', { name: 'Bot', endpoint: 'not a url' }, ADMIN_TOKEN);
    expect(bad.status).toBe(400);
    const list = await t.api.get('/api/v1/bot-providers', ADMIN_TOKEN);
    expect(list.body.bot_providers).toContainEqual({
      provider_id: res.body.provider_id,
      name: 'Bot',
      endpoint: `${integrator.url}/hook`,
      bot_url: `${t.base}/bot`,
      auth: { token_url: `${integrator.url}/token`, client_id: 'cid' },
    });
  });
});
