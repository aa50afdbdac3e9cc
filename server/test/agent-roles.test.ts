import { AGENT_NAMESPACE } from '@svc/protocol';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.dispose();
});

const makeAdmin = async () => {
  const agent = await createAgent(t.api);
  expect((await t.api.patch(`/api/v1/agents/${agent.id}`, { role: 'admin' }, ADMIN_TOKEN)).body.role).toBe('admin');
  return agent;
};

describe('agent roles and the admin API', () => {
  it('an admin agent uses the admin API with its own token; the token of a plain agent is refused with 401', async () => {
    const admin = await makeAdmin();
    const agent = await createAgent(t.api);
    expect((await t.api.get('/api/v1/channels', admin.token)).status).toBe(200);
    const refused = await t.api.get('/api/v1/channels', agent.token);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toEqual({ code: 'invalid_client', message: 'Missing or invalid admin token' });
    expect((await t.api.get('/api/v1/channels', 'no-such-token')).status).toBe(401);
    expect((await t.api.get('/api/v1/channels', ADMIN_TOKEN)).status).toBe(200);
  });

  it('creates agents with a role and channels, and lists role and active', async () => {
    const channel = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [] }, ADMIN_TOKEN)).body;
    const res = await t.api.post(
      '/api/v1/agents',
      { name: 'Ada', email: `ada-${Date.now()}@example.com`, password: 'long enough pw', role: 'admin', channel_ids: [channel.id] },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Ada', role: 'admin', active: true, status: 'offline' });
    expect((await t.api.get(`/api/v1/channels/${channel.id}`, ADMIN_TOKEN)).body.agent_ids).toEqual([res.body.id]);
    expect((await t.api.get(`/api/v1/agents/${res.body.id}`, ADMIN_TOKEN)).body.channel_ids).toEqual([channel.id]);
    const listed = (await t.api.get('/api/v1/agents', ADMIN_TOKEN)).body.agents.find((a: { id: number }) => a.id === res.body.id);
    expect(listed).toMatchObject({ role: 'admin', active: true });
  });

  it('moves an agent between channels: it sees only the chats of its channels', async () => {
    const agent = await createAgent(t.api);
    const a = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'A', agent_ids: [] }, ADMIN_TOKEN)).body;
    const b = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'B', agent_ids: [] }, ADMIN_TOKEN)).body;
    await t.api.patch(`/api/v1/agents/${agent.id}`, { channel_ids: [a.id, b.id] }, ADMIN_TOKEN);
    expect((await t.api.get(`/api/v1/channels/${b.id}`, ADMIN_TOKEN)).body.agent_ids).toEqual([agent.id]);
    const moved = await t.api.patch(`/api/v1/agents/${agent.id}`, { channel_ids: [a.id] }, ADMIN_TOKEN);
    expect(moved.body.channel_ids).toEqual([a.id]);
    expect((await t.api.get(`/api/v1/channels/${b.id}`, ADMIN_TOKEN)).body.agent_ids).toEqual([]);
  });

  it('a deactivated agent is logged out at once: tokens, sockets and logins stop working', async () => {
    const agent = await createAgent(t.api);
    await t.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);
    const socket = io(`${t.base}${AGENT_NAMESPACE}`, { auth: { token: agent.token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));

    const res = await t.api.patch(`/api/v1/agents/${agent.id}`, { active: false }, ADMIN_TOKEN);
    expect(res.body).toMatchObject({ active: false, status: 'offline' });
    await disconnected;
    expect((await t.api.get('/api/v1/me', agent.token)).status).toBe(401);
    expect((await t.api.post('/api/v1/auth/login', { email: agent.email, password: agent.password })).status).toBe(401);

    await t.api.patch(`/api/v1/agents/${agent.id}`, { active: true }, ADMIN_TOKEN);
    expect((await t.api.get('/api/v1/me', agent.token)).status).toBe(401);
    expect((await t.api.post('/api/v1/auth/login', { email: agent.email, password: agent.password })).status).toBe(200);
  });

  it('an admin cannot take away its own admin role or deactivate itself', async () => {
    const admin = await makeAdmin();
    for (const body of [{ role: 'agent' }, { active: false }]) {
      const res = await t.api.patch(`/api/v1/agents/${admin.id}`, body, admin.token);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('An admin cannot take away its own admin role or deactivate itself');
    }
    expect((await t.api.patch(`/api/v1/agents/${admin.id}`, { name: 'Still admin' }, admin.token)).body).toMatchObject({
      name: 'Still admin',
      role: 'admin',
    });
  });

  it('a new password replaces the old one', async () => {
    const agent = await createAgent(t.api);
    await t.api.patch(`/api/v1/agents/${agent.id}`, { password: 'a brand new secret' }, ADMIN_TOKEN);
    expect((await t.api.post('/api/v1/auth/login', { email: agent.email, password: agent.password })).status).toBe(401);
    expect((await t.api.post('/api/v1/auth/login', { email: agent.email, password: 'a brand new secret' })).status).toBe(200);
  });

  it.each([
    [{ role: 'owner' }, 'role'],
    [{ active: 'no' }, 'active'],
    [{ channel_ids: [99999] }, 'channel_ids: no channel 99999'],
    [{ password: 'short' }, 'password: must have at least 8 characters'],
    [{ nickname: 'x' }, 'nickname'],
  ])('refuses %j with a 400 naming %s', async (body, where) => {
    const agent = await createAgent(t.api);
    const res = await t.api.patch(`/api/v1/agents/${agent.id}`, body, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(where);
  });

  it("refuses another agent's e-mail, and answers 404 for an unknown agent", async () => {
    const [a, b] = [await createAgent(t.api), await createAgent(t.api)];
    const res = await t.api.patch(`/api/v1/agents/${a.id}`, { email: b.email.toUpperCase() }, ADMIN_TOKEN);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('email: an agent with this e-mail already exists');
    expect((await t.api.patch('/api/v1/agents/99999', { name: 'x' }, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.get('/api/v1/agents/abc', ADMIN_TOKEN)).status).toBe(404);
  });
});
