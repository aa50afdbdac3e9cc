import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let alice: TestAgent;
let bob: TestAgent;

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  alice = await createAgent(t.api, { name: 'Alice' });
  bob = await createAgent(t.api, { name: 'Bob' });
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

describe('admin api: departments', () => {
  it('creates a department with its agents, lists it and reads it back', async () => {
    const created = await t.api.post('/api/v1/departments', { name: '  Sales ', agent_ids: [bob.id, alice.id, bob.id] }, ADMIN_TOKEN);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Sales', agent_ids: [alice.id, bob.id].sort((a, b) => a - b) });
    const bare = await t.api.post('/api/v1/departments', { name: 'Billing' }, ADMIN_TOKEN);
    expect(bare.body).toMatchObject({ name: 'Billing', agent_ids: [] });

    const list = await t.api.get('/api/v1/departments', ADMIN_TOKEN);
    expect(list.status).toBe(200);
    expect(list.body.departments).toContainEqual(created.body);
    expect(list.body.departments).toContainEqual(bare.body);
    expect((await t.api.get(`/api/v1/departments/${created.body.id}`, ADMIN_TOKEN)).body).toEqual(created.body);
  });

  it('renames a department and replaces its agents', async () => {
    const d = (await t.api.post('/api/v1/departments', { name: 'Support', agent_ids: [alice.id] }, ADMIN_TOKEN)).body;
    const renamed = await t.api.patch(`/api/v1/departments/${d.id}`, { name: 'Customer care' }, ADMIN_TOKEN);
    expect(renamed).toMatchObject({ status: 200, body: { id: d.id, name: 'Customer care', agent_ids: [alice.id] } });
    const moved = await t.api.patch(`/api/v1/departments/${d.id}`, { agent_ids: [bob.id] }, ADMIN_TOKEN);
    expect(moved.body).toEqual({ id: d.id, name: 'Customer care', agent_ids: [bob.id] });
    // The same name in another case is still this department's own.
    expect((await t.api.patch(`/api/v1/departments/${d.id}`, { name: 'CUSTOMER CARE' }, ADMIN_TOKEN)).status).toBe(200);
  });

  describe('when the request is wrong', () => {
    it.each([
      ['no name', {}, /name/],
      ['a blank name', { name: '   ' }, /name: must not be empty/],
      ['a name that is not a string', { name: 42 }, /name/],
      ['an overlong name', { name: 'x'.repeat(201) }, /name: must be at most 200 characters/],
      ['agent_ids that are not ids', { name: 'Odd', agent_ids: ['one'] }, /agent_ids/],
      ['an unknown field', { name: 'Odd', colour: 'red' }, /colour/],
    ])('answers 400 invalid_request for %s', async (_, body, message) => {
      const res = await t.api.post('/api/v1/departments', body, ADMIN_TOKEN);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(message);
    });

    it('refuses an agent that does not exist, naming it', async () => {
      const res = await t.api.post('/api/v1/departments', { name: 'Ghosts', agent_ids: [alice.id, 999_999] }, ADMIN_TOKEN);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('agent_ids: no agent with id 999999');
    });

    it('refuses a name already taken, in any case, on creation and on rename', async () => {
      await t.api.post('/api/v1/departments', { name: 'Returns' }, ADMIN_TOKEN);
      const again = await t.api.post('/api/v1/departments', { name: 'RETURNS' }, ADMIN_TOKEN);
      expect(again.status).toBe(400);
      expect(again.body.error).toEqual({ code: 'invalid_request', message: 'name: a department named "RETURNS" already exists' });
      const other = (await t.api.post('/api/v1/departments', { name: 'Refunds' }, ADMIN_TOKEN)).body;
      const rename = await t.api.patch(`/api/v1/departments/${other.id}`, { name: 'returns' }, ADMIN_TOKEN);
      expect(rename.status).toBe(400);
      expect(rename.body.error.code).toBe('invalid_request');
    });

    it('refuses an empty update', async () => {
      const d = (await t.api.post('/api/v1/departments', { name: 'Empty patch' }, ADMIN_TOKEN)).body;
      const res = await t.api.patch(`/api/v1/departments/${d.id}`, {}, ADMIN_TOKEN);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/give name, agent_ids or both/);
    });
  });

  it.each([
    ['GET', '/api/v1/departments/999999'],
    ['PATCH', '/api/v1/departments/999999'],
    ['DELETE', '/api/v1/departments/999999'],
    ['GET', '/api/v1/departments/not-a-number'],
  ])('%s %s of no department answers 404 not_found', async (method, path) => {
    const res = await t.api.request(method, path, { token: ADMIN_TOKEN, body: method === 'PATCH' ? { name: 'Nobody' } : undefined });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: 'not_found', message: 'No such department' });
  });

  it('lets agents read departments but not change them', async () => {
    expect((await t.api.get('/api/v1/departments', alice.token)).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/api/v1/departments'],
      ['PATCH', '/api/v1/departments/1'],
      ['DELETE', '/api/v1/departments/1'],
    ] as const) {
      const res = await t.api.request(method, path, { token: alice.token, body: { name: 'Mine' } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_client');
    }
    expect((await t.api.get('/api/v1/departments')).status).toBe(401);
    expect((await t.api.get('/api/v1/departments', 'wrong-token')).status).toBe(401);
  });
});

describe('a chat in a department', () => {
  it('shows the department in the agent api, moves between departments, and loses it when the department is deleted', async () => {
    const channel = await createChatApiChannel(t.api, { webhook_url: `${integrator.url}/hook`, agent_ids: [alice.id] });
    await postCustomerMessage(t.api, channel.endpoint, 'dept-client-1', 'Where is my order?');
    const chats = (await t.api.get('/api/v1/chats?state=open', alice.token)).body.chats;
    const chat = chats.find((c: any) => c.client.id === 'dept-client-1');
    expect(chat.department).toBeNull();

    const sales = (await t.api.post('/api/v1/departments', { name: 'Orders' }, ADMIN_TOKEN)).body;
    const moved = await t.api.put(`/api/v1/chats/${chat.id}/department`, { department_id: sales.id }, alice.token);
    expect(moved.status).toBe(200);
    expect(moved.body.chat.department).toEqual({ id: sales.id, name: 'Orders' });
    const listed = (await t.api.get('/api/v1/chats?state=open', alice.token)).body.chats.find((c: any) => c.id === chat.id);
    expect(listed.department).toEqual({ id: sales.id, name: 'Orders' });

    const unknown = await t.api.put(`/api/v1/chats/${chat.id}/department`, { department_id: 999_999 }, alice.token);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toEqual({ code: 'invalid_request', message: 'department_id: no department with id 999999' });
    expect((await t.api.put(`/api/v1/chats/${chat.id}/department`, { department_id: 'sales' }, alice.token)).status).toBe(400);
    expect((await t.api.put(`/api/v1/chats/${chat.id}/department`, { department_id: sales.id }, bob.token)).status).toBe(404);

    await t.api.patch(`/api/v1/departments/${sales.id}`, { name: 'Order desk' }, ADMIN_TOKEN);
    expect((await t.api.get(`/api/v1/chats/${chat.id}`, alice.token)).body.chat.department.name).toBe('Order desk');

    expect((await t.api.delete(`/api/v1/departments/${sales.id}`, ADMIN_TOKEN)).status).toBe(204);
    const after = await t.api.get(`/api/v1/chats/${chat.id}`, alice.token);
    expect(after.status).toBe(200);
    expect(after.body.chat.department).toBeNull();
    expect((await t.api.get(`/api/v1/departments/${sales.id}`, ADMIN_TOKEN)).status).toBe(404);

    const out = await t.api.put(`/api/v1/chats/${chat.id}/department`, { department_id: null }, alice.token);
    expect(out).toMatchObject({ status: 200, body: { chat: { department: null } } });
  });
});
