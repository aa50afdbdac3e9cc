import { AGENT_NAMESPACE, type AgentServerEvents, type ChatTransferredEvent, type MessageView } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let alice: TestAgent;
let bob: TestAgent;
let carol: TestAgent;
let channel: TestChannel;
const sockets: Socket[] = [];

const until = async <T>(read: () => Promise<T> | T): Promise<T> => {
  for (let i = 0; i < 200; i += 1) {
    const v = await read();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
};

async function consoleOf(agent: TestAgent) {
  const socket: Socket<AgentServerEvents> = io(`${t.base}${AGENT_NAMESPACE}`, { auth: { token: agent.token }, transports: ['websocket'] });
  sockets.push(socket);
  const transferred: ChatTransferredEvent[] = [];
  socket.on('chat:transferred', (e) => transferred.push(e));
  await new Promise((r) => socket.once('connect', () => r(undefined)));
  return transferred;
}

/** A chat of the channel that Alice has taken. */
async function alicesChat() {
  const chatId = (await postCustomerMessage(t.api, channel.endpoint, `c-${Math.random()}`, 'I need help')).body.chat_id as number;
  await t.api.post(`/api/v1/chats/${chatId}/accept`, {}, alice.token);
  return chatId;
}
const transfer = (chatId: number, body: unknown, token = alice.token) => t.api.post(`/api/v1/chats/${chatId}/transfer`, body, token);

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  alice = await createAgent(t.api, { name: 'Alice' });
  bob = await createAgent(t.api, { name: 'Bob' });
  carol = await createAgent(t.api, { name: 'Carol' });
  channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [alice.id, bob.id] });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await integrator.close();
});

describe('transfer', () => {
  it('hands the chat to another agent, who is told at once, and the history says who passed it to whom', async () => {
    const told = await consoleOf(bob);
    const chatId = await alicesChat();
    const res = await transfer(chatId, { agent_id: bob.id, note: 'Wants a refund, order 1234' });
    expect(res.status).toBe(200);
    expect(res.body.chat).toMatchObject({ id: chatId, assigned_agent_id: bob.id, state: 'open' });
    const event = await until(() => told.find((e) => e.chat.id === chatId));
    expect(event).toMatchObject({
      from_agent: { id: alice.id, name: 'Alice' },
      to: { agent_id: bob.id },
      note: 'Wants a refund, order 1234',
      chat: { assigned_agent_id: bob.id },
    });
    const messages = (await t.api.get(`/api/v1/chats/${chatId}/messages`, bob.token)).body.messages as MessageView[];
    expect(messages.slice(1).map((m) => [m.author, m.text, m.internal])).toEqual([
      ['system', 'Alice transferred the chat to Bob', true],
      ['agent', 'Wants a refund, order 1234', true],
    ]);
    // Bob can answer now; the customer never saw the hand-over or the note.
    await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Bob here' }, bob.token);
    await until(() => integrator.received.find((r) => r.raw.includes('Bob here')));
    expect(integrator.received.filter((r) => r.raw.includes('transferred') || r.raw.includes('order 1234'))).toEqual([]);
  });

  it("returns the chat to a department's queue and tells the department's agents", async () => {
    const department = (await t.api.post('/api/v1/departments', { name: 'Billing', agent_ids: [bob.id] }, ADMIN_TOKEN)).body;
    const told = await consoleOf(bob);
    const chatId = await alicesChat();
    const res = await transfer(chatId, { department_id: department.id });
    expect(res.status).toBe(200);
    expect(res.body.chat).toMatchObject({ assigned_agent_id: null, state: 'open', department: { id: department.id, name: 'Billing' } });
    const event = await until(() => told.find((e) => e.chat.id === chatId));
    expect(event).toMatchObject({ to: { department_id: department.id, department_name: 'Billing' }, note: null });
    const messages = (await t.api.get(`/api/v1/chats/${chatId}/messages`, alice.token)).body.messages as MessageView[];
    expect(messages.at(-1)).toMatchObject({
      author: 'system',
      text: 'Alice transferred the chat to the Billing department',
      internal: true,
    });
  });

  it("lists the channel's other agents and the departments as targets", async () => {
    const chatId = await alicesChat();
    const res = await t.api.get(`/api/v1/chats/${chatId}/transfer-targets`, alice.token);
    expect(res.status).toBe(200);
    expect(res.body.agents).toEqual([{ id: bob.id, name: 'Bob', status: expect.any(String) }]);
    expect(res.body.departments).toContainEqual({ id: expect.any(Number), name: 'Billing' });
    expect((await t.api.get(`/api/v1/chats/${chatId}/transfer-targets`, carol.token)).status).toBe(404);
  });

  describe('when the transfer is wrong', () => {
    it('answers 400 for an agent without access to the channel, saying so', async () => {
      const chatId = await alicesChat();
      const res = await transfer(chatId, { agent_id: carol.id });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ code: 'invalid_request', message: "agent_id: Carol has no access to this chat's channel" });
      expect((await t.api.get(`/api/v1/chats/${chatId}`, alice.token)).body.chat.assigned_agent_id).toBe(alice.id);
    });

    it.each([
      ['a missing agent', { agent_id: 999_999 }, /agent_id: no such agent/],
      ['a missing department', { department_id: 999_999 }, /department_id: no such department/],
      ['neither target', { note: 'hi' }, /agent_id: give either agent_id or department_id/],
      ['both targets', { agent_id: 1, department_id: 1 }, /give either agent_id or department_id/],
      ['an agent id that is text', { agent_id: 'bob' }, /agent_id/],
      ['an empty note', { agent_id: 1, note: ' ' }, /note: must not be empty/],
      ['a 60 KB note', { agent_id: 1, note: 'x'.repeat(60_000) }, /note: must be at most 4000 characters/],
    ])('answers 400 invalid_request naming the field for %s', async (_, body, message) => {
      const chatId = await alicesChat();
      const res = await transfer(chatId, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(message);
    });

    it('answers 400 for a closed chat and 404 for a chat the caller does not serve', async () => {
      const chatId = await alicesChat();
      await t.api.post(`/api/v1/chats/${chatId}/close`, {}, alice.token);
      expect((await transfer(chatId, { agent_id: bob.id })).body.error).toEqual({ code: 'invalid_request', message: 'The chat is closed' });
      expect((await transfer(chatId, { agent_id: bob.id }, carol.token)).status).toBe(404);
    });
  });
});
