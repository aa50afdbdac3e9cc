import {
  AGENT_NAMESPACE,
  VISITOR_NAMESPACE,
  type AgentServerEvents,
  type VisitorClientEvents,
  type VisitorServerEvents,
  type WidgetSession,
} from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, type TestAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

// Issue 24: typing preview. The visitor's draft reaches agents only on a channel that turned it on.
type AgentSocket = Socket<AgentServerEvents>;
type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;
type TypingEvent = Parameters<AgentServerEvents['typing']>[0];

let t: TestServer;
let agent: TestAgent;
let agentSocket: AgentSocket;
const typings: TypingEvent[] = [];
const sockets: Socket[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function widget(typingPreview?: boolean) {
  const created = await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [agent.id] }, ADMIN_TOKEN);
  if (typingPreview === undefined) return created.body as { id: number; public_id: string; typing_preview: boolean };
  const patched = await t.api.patch(`/api/v1/channels/${created.body.id}`, { typing_preview: typingPreview }, ADMIN_TOKEN);
  return patched.body as { id: number; public_id: string; typing_preview: boolean };
}

async function visitorInChat(channel: { public_id: string }) {
  const socket: VisitorSocket = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: channel.public_id },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  const sent = await socket.emitWithAck('message:send', { client_msg_id: `m-${Math.random().toString(36).slice(2, 12)}`, text: 'Hi' });
  if (!sent.ok) throw new Error(sent.error);
  return { socket, session, chatId: sent.value!.chat_id };
}

const typingOf = (chatId: number) => typings.filter((e) => e.chat_id === chatId && e.author === 'client');

beforeAll(async () => {
  t = await startTestServer();
  agent = await createAgent(t.api);
  agentSocket = io(`${t.base}${AGENT_NAMESPACE}`, { auth: { token: agent.token }, transports: ['websocket'], reconnection: false });
  await new Promise<void>((resolve, reject) => {
    agentSocket.once('connect', () => resolve());
    agentSocket.once('connect_error', reject);
  });
  agentSocket.on('typing', (e) => typings.push(e));
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  agentSocket.disconnect();
  await t.dispose();
});

describe('typing_preview', () => {
  it('is off by default: the session says so and a draft the visitor sends never reaches agents', async () => {
    const channel = await widget();
    expect(channel.typing_preview).toBe(false);
    const { socket, session, chatId } = await visitorInChat(channel);
    expect(session.typing_preview).toBe(false);
    socket.emit('typing', { state: 'start', text: 'my card number is 4111' });
    await expect.poll(() => typingOf(chatId).length).toBe(1);
    expect(typingOf(chatId)[0]).toEqual({ chat_id: chatId, author: 'client', state: 'start' });
    const messages = (await t.api.get(`/api/v1/chats/${chatId}/messages`, agent.token)).body.messages as { text: string }[];
    expect(messages.map((m) => m.text)).toEqual(['Hi']);
  });

  it('when on, the session says so and agents get the draft with the typing event, cut to 1,000 code points', async () => {
    const channel = await widget(true);
    expect(channel.typing_preview).toBe(true);
    const { socket, session, chatId } = await visitorInChat(channel);
    expect(session.typing_preview).toBe(true);
    socket.emit('typing', { state: 'start', text: 'Do you ship to Oslo?' });
    await expect
      .poll(() => typingOf(chatId).at(-1))
      .toEqual({ chat_id: chatId, author: 'client', state: 'start', text: 'Do you ship to Oslo?' });

    socket.emit('typing', { state: 'start', text: '🍵'.repeat(1200) });
    await expect.poll(() => typingOf(chatId).at(-1)?.text).toBe('🍵'.repeat(1000));
    // Not a message: nothing of the draft is stored.
    const messages = (await t.api.get(`/api/v1/chats/${chatId}/messages`, agent.token)).body.messages as { text: string }[];
    expect(messages.map((m) => m.text)).toEqual(['Hi']);
  });

  it('turned off while the visitor is connected: the next draft is no longer forwarded', async () => {
    const channel = await widget(true);
    const { socket, chatId } = await visitorInChat(channel);
    expect((await t.api.patch(`/api/v1/channels/${channel.id}`, { typing_preview: false }, ADMIN_TOKEN)).body.typing_preview).toBe(false);
    socket.emit('typing', { state: 'start', text: 'still secret' });
    await expect.poll(() => typingOf(chatId).length).toBe(1);
    await sleep(200);
    expect(typingOf(chatId)).toEqual([{ chat_id: chatId, author: 'client', state: 'start' }]);
  });

  it('is refused on a Chat API channel and when not a boolean, naming the field', async () => {
    const app = await createChatApiChannel(t.api, { webhook_url: 'http://127.0.0.1:9/hook', agent_ids: [agent.id] });
    const onApp = await t.api.patch(`/api/v1/channels/${app.id}`, { typing_preview: true }, ADMIN_TOKEN);
    expect(onApp.status).toBe(400);
    expect(onApp.body.error.message).toContain('typing_preview');
    const channel = await widget();
    const bad = await t.api.patch(`/api/v1/channels/${channel.id}`, { typing_preview: 'yes' }, ADMIN_TOKEN);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('typing_preview') });
  });
});
