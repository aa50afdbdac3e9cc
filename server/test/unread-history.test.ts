import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let alice: TestAgent;
let bob: TestAgent;
let channel: TestChannel;

const unreadOf = async (chatId: number, token: string) =>
  ((await t.api.get('/api/v1/chats?state=open', token)).body.chats as any[]).find((c) => c.id === chatId)?.unread;

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  alice = await createAgent(t.api, { name: 'Alice' });
  bob = await createAgent(t.api, { name: 'Bob' });
  channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [alice.id, bob.id] });
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

describe('unread counts', () => {
  it("counts the customer's messages after each agent's own last read, and keeps the mark across requests", async () => {
    const first = (await postCustomerMessage(t.api, channel.endpoint, 'u-1', 'one')).body;
    await postCustomerMessage(t.api, channel.endpoint, 'u-1', 'two');
    const chatId = first.chat_id as number;
    expect(await unreadOf(chatId, alice.token)).toBe(2);

    expect((await t.api.post(`/api/v1/chats/${chatId}/read`, { message_id: first.message_id }, alice.token)).status).toBe(204);
    expect(await unreadOf(chatId, alice.token)).toBe(1);
    expect(await unreadOf(chatId, bob.token)).toBe(2);

    // Agent messages are never unread; a later client message is.
    await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'On it' }, alice.token);
    const third = (await postCustomerMessage(t.api, channel.endpoint, 'u-1', 'three')).body;
    expect(await unreadOf(chatId, alice.token)).toBe(2);
    await t.api.post(`/api/v1/chats/${chatId}/read`, { message_id: third.message_id }, alice.token);
    expect(await unreadOf(chatId, alice.token)).toBe(0);
    // An older mark does not move the read point back.
    await t.api.post(`/api/v1/chats/${chatId}/read`, { message_id: first.message_id }, alice.token);
    expect(await unreadOf(chatId, alice.token)).toBe(0);
  });

  it('answers 400 naming message_id for a message of another chat or a bad id, and 404 for a chat the caller does not serve', async () => {
    const a = (await postCustomerMessage(t.api, channel.endpoint, 'u-2', 'a')).body;
    const b = (await postCustomerMessage(t.api, channel.endpoint, 'u-3', 'b')).body;
    const other = await t.api.post(`/api/v1/chats/${a.chat_id}/read`, { message_id: b.message_id }, alice.token);
    expect(other.status).toBe(400);
    expect(other.body.error).toEqual({ code: 'invalid_request', message: 'message_id: no such message in this chat' });
    const bad = await t.api.post(`/api/v1/chats/${a.chat_id}/read`, { message_id: 'last' }, alice.token);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/message_id/);
    const stranger = await createAgent(t.api);
    expect((await t.api.post(`/api/v1/chats/${a.chat_id}/read`, { message_id: a.message_id }, stranger.token)).status).toBe(404);
  });
});

describe("the client's earlier chats", () => {
  it("lists the same client's other chats of the channel, newest first, and no one else's", async () => {
    const first = (await postCustomerMessage(t.api, channel.endpoint, 'h-1', 'first visit')).body.chat_id as number;
    await t.api.post(`/api/v1/chats/${first}/close`, {}, alice.token);
    const second = (await postCustomerMessage(t.api, channel.endpoint, 'h-1', 'second visit')).body.chat_id as number;
    await t.api.post(`/api/v1/chats/${second}/close`, {}, alice.token);
    await postCustomerMessage(t.api, channel.endpoint, 'h-someone-else', 'not mine');
    const now = (await postCustomerMessage(t.api, channel.endpoint, 'h-1', 'third visit')).body.chat_id as number;

    const res = await t.api.get(`/api/v1/chats/${now}/history`, alice.token);
    expect(res.status).toBe(200);
    expect(res.body.chats.map((c: any) => [c.id, c.state, c.last_message.text])).toEqual([
      [second, 'closed', 'second visit'],
      [first, 'closed', 'first visit'],
    ]);
    expect((await t.api.get(`/api/v1/chats/${now}/history`, (await createAgent(t.api)).token)).status).toBe(404);
  });
});
