import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let alice: TestAgent;
let bob: TestAgent;
let aliceChannel: TestChannel;
let bobChannel: TestChannel;

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  alice = await createAgent(t.api, { name: 'Alice', password: 'alice password' });
  bob = await createAgent(t.api, { name: 'Bob' });
  aliceChannel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [alice.id] });
  bobChannel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [bob.id] });
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

async function newChat(channel: TestChannel, text = 'Hello') {
  const senderId = `c-${Math.random().toString(36).slice(2)}`;
  const res = await postCustomerMessage(t.api, channel.endpoint, senderId, text, { name: 'Customer' });
  expect(res.status).toBe(200);
  return { chatId: res.body.chat_id as number, senderId };
}

describe('agent login', () => {
  it('answers a token and the agent for the right password', async () => {
    const res = await t.api.post('/api/v1/auth/login', { email: alice.email.toUpperCase(), password: 'alice password' });
    expect(res.status).toBe(200);
    expect(res.body.agent).toMatchObject({ id: alice.id, name: 'Alice', status: 'offline' });
    expect((await t.api.get('/api/v1/me', res.body.token)).body.agent.id).toBe(alice.id);
  });

  it('answers 401 invalid_client for a wrong password or an unknown e-mail, alike', async () => {
    const wrong = await t.api.post('/api/v1/auth/login', { email: alice.email, password: 'nope' });
    const unknown = await t.api.post('/api/v1/auth/login', { email: 'ghost@example.com', password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('logs out: the token stops working at once, other tokens of the agent keep working', async () => {
    const a = await t.api.post('/api/v1/auth/login', { email: alice.email, password: 'alice password' });
    const b = await t.api.post('/api/v1/auth/login', { email: alice.email, password: 'alice password' });
    expect((await t.api.post('/api/v1/auth/logout', undefined, a.body.token)).status).toBe(204);
    expect((await t.api.get('/api/v1/me', a.body.token)).status).toBe(401);
    expect((await t.api.get('/api/v1/me', b.body.token)).status).toBe(200);
  });

  it('tells an agent who it is and which channels it serves', async () => {
    const me = await t.api.get('/api/v1/me', alice.token);
    expect(me.body).toEqual({
      agent: expect.objectContaining({ id: alice.id, name: 'Alice' }),
      role: 'agent',
      channel_ids: [aliceChannel.id],
    });
  });

  it('answers 400 for a body without an e-mail', async () => {
    expect((await t.api.post('/api/v1/auth/login', { password: 'x' })).status).toBe(400);
  });
});

describe('agent api authentication', () => {
  it.each([
    ['GET', '/api/v1/chats'],
    ['PUT', '/api/v1/me/presence'],
    ['GET', '/api/v1/chats/1/messages'],
    ['POST', '/api/v1/chats/1/messages'],
    ['POST', '/api/v1/chats/1/typing'],
    ['POST', '/api/v1/chats/1/accept'],
    ['POST', '/api/v1/chats/1/close'],
  ])('%s %s without a valid agent token answers 401', async (method, path) => {
    expect((await t.api.request(method, path)).status).toBe(401);
    const res = await t.api.request(method, path, { token: 'forged-token' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_client');
  });
});

describe('presence', () => {
  it('drives the status of the channels the agent serves', async () => {
    expect((await t.api.get(aliceChannel.status_url)).body).toBe(0);
    const online = await t.api.put('/api/v1/me/presence', { status: 'online' }, alice.token);
    expect(online).toMatchObject({ status: 200, body: { status: 'online' } });
    expect((await t.api.get(aliceChannel.status_url)).body).toBe(1);
    expect((await t.api.get(bobChannel.status_url)).body).toBe(0);
    await t.api.put('/api/v1/me/presence', { status: 'offline' }, alice.token);
    expect((await t.api.get(aliceChannel.status_url)).body).toBe(0);
  });

  it('answers 400 for an unknown status', async () => {
    expect((await t.api.put('/api/v1/me/presence', { status: 'away' }, alice.token)).status).toBe(400);
  });
});

describe('chats of an agent', () => {
  it('lists only the chats of the channels the agent is assigned to', async () => {
    const mine = await newChat(aliceChannel);
    const theirs = await newChat(bobChannel);
    const list = await t.api.get('/api/v1/chats?state=open', alice.token);
    const ids = list.body.chats.map((c: { id: number }) => c.id);
    expect(ids).toContain(mine.chatId);
    expect(ids).not.toContain(theirs.chatId);
    const chat = list.body.chats.find((c: { id: number }) => c.id === mine.chatId);
    expect(chat).toMatchObject({
      channel_id: aliceChannel.id,
      state: 'open',
      assigned_agent_id: null,
      client: { id: mine.senderId, name: 'Customer' },
    });
    expect(chat.last_message).toMatchObject({ author: 'client', text: 'Hello' });
  });

  it.each([
    ['GET', 'messages', undefined],
    ['POST', 'messages', { type: 'text', text: 'hi' }],
    ['POST', 'typing', { state: 'start' }],
    ['POST', 'accept', undefined],
    ['POST', 'close', undefined],
  ])('answers 404 to %s %s on a chat of another channel, and changes nothing', async (method, action, body) => {
    const theirs = await newChat(bobChannel);
    const res = await t.api.request(method, `/api/v1/chats/${theirs.chatId}/${action}`, { token: alice.token, body });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    const seenByBob = await t.api.get(`/api/v1/chats/${theirs.chatId}/messages`, bob.token);
    expect(seenByBob.body.messages).toHaveLength(1);
    expect((await t.api.get(`/api/v1/chats/${theirs.chatId}`, bob.token)).body.chat.state).toBe('open');
  });

  it('answers 404 for a chat that does not exist or a malformed id', async () => {
    expect((await t.api.get('/api/v1/chats/999999/messages', alice.token)).status).toBe(404);
    expect((await t.api.get('/api/v1/chats/abc/messages', alice.token)).status).toBe(404);
  });

  it('answers 400 for an unknown state filter', async () => {
    expect((await t.api.get('/api/v1/chats?state=archived', alice.token)).status).toBe(400);
  });
});

describe('messages of a chat', () => {
  it('stores the agent reply, answers 201 pending, and lists the history in order', async () => {
    const { chatId } = await newChat(aliceChannel, 'first');
    await postCustomerMessage(
      t.api,
      aliceChannel.endpoint,
      (await t.api.get(`/api/v1/chats/${chatId}`, alice.token)).body.chat.client.id,
      'second',
    );
    const sent = await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Answer 😀' }, alice.token);
    expect(sent.status).toBe(201);
    expect(sent.body.message).toMatchObject({
      chat_id: chatId,
      author: 'agent',
      agent_id: alice.id,
      agent_name: 'Alice',
      type: 'text',
      text: 'Answer 😀',
      delivery: 'pending',
    });
    const history = await t.api.get(`/api/v1/chats/${chatId}/messages`, alice.token);
    expect(history.body.messages.map((m: { text: string }) => m.text)).toEqual(['first', 'second', 'Answer 😀']);
    // Replying to an unassigned chat takes it.
    expect((await t.api.get(`/api/v1/chats/${chatId}`, alice.token)).body.chat.assigned_agent_id).toBe(alice.id);
  });

  it('accepts a multimedia message of spec 2.1', async () => {
    const { chatId } = await newChat(aliceChannel);
    const photo = { type: 'photo', file: 'https://cdn.example.com/a.png', file_name: 'a.png', file_size: 1234, width: 10, height: 10 };
    const res = await t.api.post(`/api/v1/chats/${chatId}/messages`, photo, alice.token);
    expect(res.status).toBe(201);
    expect(res.body.message).toMatchObject(photo);
    const location = await t.api.post(
      `/api/v1/chats/${chatId}/messages`,
      { type: 'location', latitude: 55.75, longitude: 37.61 },
      alice.token,
    );
    expect(location.status).toBe(201);
  });

  it.each([
    [{ type: 'text' }],
    [{ type: 'text', text: '   ' }],
    [{ type: 'text', text: 'x'.repeat(4001) }],
    [{ type: 'photo', file: 'javascript:alert(1)' }],
    [{ type: 'location', latitude: 91, longitude: 0 }],
    [{ type: 'fax', text: 'x' }],
    [{ type: 'document', file: 'https://example.com/a.pdf', file_size: -1 }],
  ])('answers 400 invalid_request for %j and stores nothing', async (body) => {
    const { chatId } = await newChat(aliceChannel);
    const res = await t.api.post(`/api/v1/chats/${chatId}/messages`, body, alice.token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect((await t.api.get(`/api/v1/chats/${chatId}/messages`, alice.token)).body.messages).toHaveLength(1);
  });

  it('names a media file after its URL when the agent gives no file_name', async () => {
    const { chatId } = await newChat(aliceChannel);
    const res = await t.api.post(
      `/api/v1/chats/${chatId}/messages`,
      { type: 'document', file: 'https://x.example/f/report%202026.pdf' },
      alice.token,
    );
    expect(res.body.message).toMatchObject({ type: 'document', file_name: 'report 2026.pdf' });
  });

  it('counts the text limit in code points: 4000 emoji pass', async () => {
    const { chatId } = await newChat(aliceChannel);
    const res = await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: '😀'.repeat(4000) }, alice.token);
    expect(res.status).toBe(201);
  });
});

describe('typing, accept and close', () => {
  it('answers 204 to typing and 400 to an unknown typing state', async () => {
    const { chatId } = await newChat(aliceChannel);
    expect((await t.api.post(`/api/v1/chats/${chatId}/typing`, { state: 'start' }, alice.token)).status).toBe(204);
    expect((await t.api.post(`/api/v1/chats/${chatId}/typing`, { state: 'maybe' }, alice.token)).status).toBe(400);
  });

  it('assigns the chat to the agent who accepts it', async () => {
    const { chatId } = await newChat(aliceChannel);
    const res = await t.api.post(`/api/v1/chats/${chatId}/accept`, undefined, alice.token);
    expect(res.status).toBe(200);
    expect(res.body.chat).toMatchObject({ id: chatId, assigned_agent_id: alice.id, state: 'open' });
  });

  it('closes the chat: it moves to the closed list, refuses replies, and a new message opens a new chat', async () => {
    const { chatId, senderId } = await newChat(aliceChannel);
    const res = await t.api.post(`/api/v1/chats/${chatId}/close`, { blacklist: true }, alice.token);
    expect(res.status).toBe(200);
    expect(res.body.chat.state).toBe('closed');
    expect(res.body.chat.closed_at).not.toBeNull();
    const closed = await t.api.get('/api/v1/chats?state=closed', alice.token);
    expect(closed.body.chats.map((c: { id: number }) => c.id)).toContain(chatId);
    const open = await t.api.get('/api/v1/chats?state=open', alice.token);
    expect(open.body.chats.map((c: { id: number }) => c.id)).not.toContain(chatId);
    expect((await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'late' }, alice.token)).status).toBe(400);
    expect((await t.api.post(`/api/v1/chats/${chatId}/accept`, undefined, alice.token)).status).toBe(400);
    const again = await postCustomerMessage(t.api, aliceChannel.endpoint, senderId, 'back again');
    expect(again.body.chat_id).not.toBe(chatId);
  });

  it('blocks a blacklisted customer: new messages answer 403 and store nothing, until an agent lifts it', async () => {
    const { chatId, senderId } = await newChat(aliceChannel);
    await t.api.post(`/api/v1/chats/${chatId}/close`, { blacklist: true }, alice.token);
    const blocked = await postCustomerMessage(t.api, aliceChannel.endpoint, senderId, 'let me in');
    expect(blocked.status).toBe(403);
    expect(blocked.body.error.code).toBe('forbidden');
    const closed = (await t.api.get('/api/v1/chats?state=closed', alice.token)).body.chats.find((c: any) => c.id === chatId);
    expect(closed.client.blacklisted).toBe(true);
    expect((await t.api.delete(`/api/v1/chats/${chatId}/blacklist`, alice.token)).status).toBe(200);
    expect((await postCustomerMessage(t.api, aliceChannel.endpoint, senderId, 'thanks')).status).toBe(200);
  });

  it('answers 400 to close with a non-boolean blacklist', async () => {
    const { chatId } = await newChat(aliceChannel);
    expect((await t.api.post(`/api/v1/chats/${chatId}/close`, { blacklist: 'yes' }, alice.token)).status).toBe(400);
  });
});
