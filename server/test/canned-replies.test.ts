import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let admin: TestAgent;
let alice: TestAgent;
let bob: TestAgent;

const create = (body: unknown, token: string) => t.api.post('/api/v1/canned-replies', body, token);
const list = async (token: string) => (await t.api.get('/api/v1/canned-replies', token)).body.canned_replies as any[];

beforeAll(async () => {
  t = await startTestServer();
  admin = await createAgent(t.api, { name: 'Ada Admin' });
  await t.api.patch(`/api/v1/agents/${admin.id}`, { role: 'admin' }, ADMIN_TOKEN);
  alice = await createAgent(t.api, { name: 'Alice' });
  bob = await createAgent(t.api, { name: 'Bob' });
});
afterAll(async () => t.dispose());

describe('saved replies', () => {
  it("lists the team's replies and the caller's own, never another agent's", async () => {
    const team = await create({ shortcut: 'hello', text: 'Hello {client.name}, I am {agent.name}.', scope: 'team' }, admin.token);
    expect(team.status).toBe(201);
    expect(team.body).toEqual({
      id: expect.any(Number),
      shortcut: 'hello',
      text: 'Hello {client.name}, I am {agent.name}.',
      scope: 'team',
      agent_id: null,
    });
    const own = await create({ shortcut: 'bye', text: 'Have a nice day!' }, alice.token);
    expect(own.body).toMatchObject({ scope: 'personal', agent_id: alice.id });
    await create({ shortcut: 'secret', text: "Bob's own" }, bob.token);

    expect((await list(alice.token)).map((r) => r.shortcut)).toEqual(['bye', 'hello']);
    expect((await list(bob.token)).map((r) => r.shortcut)).toEqual(['hello', 'secret']);
  });

  it('lets an agent change and delete their own; another agent is told there is no such reply', async () => {
    const own = (await create({ shortcut: 'ship', text: 'It ships today.' }, alice.token)).body;
    expect((await t.api.patch(`/api/v1/canned-replies/${own.id}`, { text: 'It ships tomorrow.' }, bob.token)).status).toBe(404);
    expect((await t.api.delete(`/api/v1/canned-replies/${own.id}`, bob.token)).status).toBe(404);
    const changed = await t.api.patch(`/api/v1/canned-replies/${own.id}`, { text: 'It ships tomorrow.' }, alice.token);
    expect(changed).toMatchObject({ status: 200, body: { shortcut: 'ship', text: 'It ships tomorrow.' } });
    expect((await t.api.delete(`/api/v1/canned-replies/${own.id}`, alice.token)).status).toBe(204);
    expect((await list(alice.token)).map((r) => r.shortcut)).not.toContain('ship');
  });

  it("keeps the team's replies to admins: 403 for an agent who adds, changes or deletes one", async () => {
    expect((await create({ shortcut: 'promo', text: 'Sale!', scope: 'team' }, alice.token)).status).toBe(403);
    const team = (await create({ shortcut: 'hours', text: 'We are open 9 to 5.', scope: 'team' }, admin.token)).body;
    expect((await t.api.patch(`/api/v1/canned-replies/${team.id}`, { text: 'x' }, alice.token)).status).toBe(403);
    expect((await t.api.delete(`/api/v1/canned-replies/${team.id}`, alice.token)).status).toBe(403);
    expect((await t.api.patch(`/api/v1/canned-replies/${team.id}`, { text: 'We are open 8 to 6.' }, admin.token)).body.text).toBe(
      'We are open 8 to 6.',
    );
  });

  it('answers 409 conflict for a shortcut already used in the same scope, and allows it in another', async () => {
    await create({ shortcut: 'thanks', text: 'Thank you!' }, alice.token);
    const again = await create({ shortcut: 'thanks', text: 'Thanks again' }, alice.token);
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: 'conflict', message: 'shortcut: "/thanks" is already used' });
    expect((await create({ shortcut: 'thanks', text: 'Thanks from Bob' }, bob.token)).status).toBe(201);
    expect((await create({ shortcut: 'thanks', text: 'Thanks from the team', scope: 'team' }, admin.token)).status).toBe(201);
    const other = (await create({ shortcut: 'cheers', text: 'Cheers' }, alice.token)).body;
    expect((await t.api.patch(`/api/v1/canned-replies/${other.id}`, { shortcut: 'thanks' }, alice.token)).status).toBe(409);
  });

  describe('when the request is wrong', () => {
    it.each([
      ['a shortcut with spaces', { shortcut: 'good bye', text: 'x' }, /shortcut: must be one word/],
      ['an empty text', { shortcut: 'empty', text: '  ' }, /text: must not be empty/],
      ['a text over 4000 characters', { shortcut: 'long', text: 'x'.repeat(4001) }, /text: must be at most 4000 characters/],
      ['an unknown scope', { shortcut: 'odd', text: 'x', scope: 'everyone' }, /scope/],
      ['no shortcut', { text: 'x' }, /shortcut/],
    ])('answers 400 invalid_request naming the field for %s', async (_, body, message) => {
      const res = await create(body, alice.token);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(message);
    });
  });
});
