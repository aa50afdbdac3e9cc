import {
  AGENT_NAMESPACE,
  VISITOR_NAMESPACE,
  type AgentServerEvents,
  type MessageView,
  type VisitorClientEvents,
  type VisitorServerEvents,
  type WidgetSession,
} from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { startSmtpSink } from './support/smtp-sink.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let owner: Awaited<ReturnType<typeof startFakeIntegrator>>;
let provider: Awaited<ReturnType<typeof startFakeIntegrator>>;
let alice: TestAgent;
let widget: { id: number; public_id: string };
let chatApi: TestChannel;
let botChannel: TestChannel;
const sockets: Socket[] = [];

const until = async <T>(read: () => Promise<T> | T, ok: (v: T) => boolean = Boolean): Promise<T> => {
  for (let i = 0; i < 200; i += 1) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
};
const secret = () => `private-${Math.random().toString(36).slice(2, 10)}`;
const note = (chatId: number, text: string, token = alice.token) => t.api.post(`/api/v1/chats/${chatId}/notes`, { text }, token);
const reply = (chatId: number, text: string) => t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text }, alice.token);

function visitor(visitorToken?: string) {
  const socket: Socket<VisitorServerEvents, VisitorClientEvents> = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widget.public_id, ...(visitorToken ? { visitor_token: visitorToken } : {}) },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const seen: string[] = [];
  socket.on('message:new', (m) => seen.push(m.text ?? ''));
  const session = new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  return { socket, seen, session };
}

async function widgetChat(email: string) {
  const v = visitor();
  const session = await v.session;
  await v.socket.emitWithAck('contact:set', { name: 'Nina', email });
  await v.socket.emitWithAck('message:send', { client_msg_id: `m-${Math.random().toString(36).slice(2, 12)}`, text: 'Where is my tea?' });
  const chat = await until(async () =>
    (await t.api.get('/api/v1/chats?state=open', alice.token)).body.chats.find((c: any) => c.client.id === session.visitor_id),
  );
  return { ...v, chatId: chat.id as number, session };
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  integrator = await startFakeIntegrator();
  owner = await startFakeIntegrator();
  provider = await startFakeIntegrator();
  t = await startTestServer({
    SVC_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    SVC_SMTP_FROM: 'Tea shop <chat@tea.example>',
    // chat_finished leaves at the close, not after the visitor's rating window.
    SVC_RATING_WINDOW_MS: '0',
  });
  alice = await createAgent(t.api, { name: 'Alice' });
  widget = (
    await t.api.post(
      '/api/v1/channels',
      { kind: 'widget', name: 'Tea shop', agent_ids: [alice.id], webhook_url: `${owner.url}/hooks`, webhook_events: ['chat_finished'] },
      ADMIN_TOKEN,
    )
  ).body;
  chatApi = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [alice.id] });
  botChannel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [alice.id], name: 'With bot' });
  const p = await t.api.post('/api/v1/bot-providers', { name: 'FAQ Bot', endpoint: `${provider.url}/hook` }, ADMIN_TOKEN);
  await t.api.patch(`/api/v1/channels/${botChannel.id}`, { bot: { provider_id: p.body.provider_id, token: 'tok-1' } }, ADMIN_TOKEN);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await Promise.all([smtp.close(), integrator.close(), owner.close(), provider.close()]);
});

describe('private notes', () => {
  it('are stored as internal messages that every agent of the channel sees, live and in the chat', async () => {
    const bob = await createAgent(t.api, { name: 'Bob' });
    await t.api.patch(`/api/v1/channels/${chatApi.id}`, { agent_ids: [alice.id, bob.id] }, ADMIN_TOKEN);
    const chatId = (await postCustomerMessage(t.api, chatApi.endpoint, 'n-1', 'Hello')).body.chat_id as number;
    const console: Socket<AgentServerEvents> = io(`${t.base}${AGENT_NAMESPACE}`, { auth: { token: bob.token }, transports: ['websocket'] });
    sockets.push(console);
    const live: MessageView[] = [];
    console.on('message:new', (m) => live.push(m));
    await new Promise((r) => console.once('connect', () => r(undefined)));

    const text = secret();
    const res = await note(chatId, text);
    expect(res.status).toBe(201);
    expect(res.body.message).toMatchObject({
      chat_id: chatId,
      author: 'agent',
      agent_id: alice.id,
      agent_name: 'Alice',
      text,
      internal: true,
    });
    await until(() => live.find((m) => m.text === text));
    const messages = (await t.api.get(`/api/v1/chats/${chatId}/messages`, bob.token)).body.messages as MessageView[];
    expect(messages.map((m) => [m.text, m.internal ?? false])).toEqual([
      ['Hello', false],
      [text, true],
    ]);
    // A note is not the customer's conversation: the chat's preview stays the customer's last message.
    expect((await t.api.get(`/api/v1/chats/${chatId}`, bob.token)).body.chat.last_message.text).toBe('Hello');
  });

  it('never reach a Chat API integrator', async () => {
    const chatId = (await postCustomerMessage(t.api, chatApi.endpoint, 'n-2', 'Hi')).body.chat_id as number;
    const text = secret();
    await note(chatId, text);
    await reply(chatId, 'visible answer');
    await until(() => integrator.received.find((r) => r.raw.includes('visible answer')));
    expect(integrator.received.filter((r) => r.raw.includes(text))).toEqual([]);
  });

  it('never reach the widget: not live, not in the session the visitor gets on coming back', async () => {
    const v = await widgetChat('nina@example.com');
    const text = secret();
    await note(v.chatId, text);
    await reply(v.chatId, 'visible to Nina');
    await until(() => v.seen.includes('visible to Nina'));
    expect(v.seen).not.toContain(text);
    const back = visitor((await v.session).visitor_token);
    const session = await back.session;
    const texts = session.chat!.messages.map((m) => m.text);
    expect(texts).toContain('visible to Nina');
    expect(texts).not.toContain(text);
  });

  it('never reach a bot', async () => {
    const chatId = (await postCustomerMessage(t.api, botChannel.endpoint, 'n-3', 'Hi bot')).body.chat_id as number;
    await until(() => provider.received.find((r) => r.body?.event === 'CLIENT_MESSAGE' && r.body.chat_id === String(chatId)));
    const text = secret();
    expect((await note(chatId, text)).status).toBe(201);
    await postCustomerMessage(t.api, botChannel.endpoint, 'n-3', 'still there?');
    await until(() => provider.received.find((r) => r.raw.includes('still there?')));
    expect(provider.received.filter((r) => r.raw.includes(text))).toEqual([]);
  });

  it('never reach a webhook or a transcript e-mail', async () => {
    const v = await widgetChat('ola@example.com');
    const text = secret();
    await note(v.chatId, text);
    await reply(v.chatId, 'It ships today.');
    await t.api.post(`/api/v1/chats/${v.chatId}/close`, {}, alice.token);
    const finished = await until(() => owner.received.find((r) => r.body?.event_name === 'chat_finished' && r.body.chat_id === v.chatId));
    const mail = await until(() => smtp.mails.find((m) => m.to.includes('ola@example.com')));
    expect(finished!.raw).toContain('It ships today.');
    expect(finished!.raw).not.toContain(text);
    expect(mail!.raw).toContain('It ships today.');
    expect(mail!.raw).not.toContain(text);
  });

  describe('when the note is wrong', () => {
    it.each([
      ['an empty text', { text: '   ' }, /text: must not be empty/],
      ['a 60 KB text', { text: 'x'.repeat(60_000) }, /text: must be at most 4000 characters/],
      ['no text', {}, /text/],
      ['an unknown field', { text: 'ok', internal: false }, /internal/],
    ])('answers 400 invalid_request naming the field for %s', async (_, body, message) => {
      const chatId = (await postCustomerMessage(t.api, chatApi.endpoint, 'n-bad', 'Hi')).body.chat_id as number;
      const res = await t.api.post(`/api/v1/chats/${chatId}/notes`, body, alice.token);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toMatch(message);
    });

    it('answers 400 naming text for a 100 KB note, and 413 only past 256 KiB', async () => {
      const chatId = (await postCustomerMessage(t.api, chatApi.endpoint, 'n-big', 'Hi')).body.chat_id as number;
      const long = await note(chatId, 'x'.repeat(100_000));
      expect(long.status).toBe(400);
      expect(long.body.error.message).toMatch(/text: must be at most 4000 characters/);
      const huge = await note(chatId, 'x'.repeat(300_000));
      expect(huge.status).toBe(413);
      expect(huge.body.error.code).toBe('payload_too_large');
    });

    it('answers 404 for a chat of a channel the agent does not serve', async () => {
      const stranger = await createAgent(t.api);
      const chatId = (await postCustomerMessage(t.api, chatApi.endpoint, 'n-404', 'Hi')).body.chat_id as number;
      expect((await note(chatId, 'hello', stranger.token)).status).toBe(404);
    });
  });
});
