import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

// docs/errors.md "Text": the same body gets the same answer on SQLite and PostgreSQL (SVC_TEST_DB=postgres).
type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;

let t: TestServer;
let agent: TestAgent;
let channel: TestChannel;
let widget: { id: number; public_id: string };
const sockets: VisitorSocket[] = [];

beforeAll(async () => {
  t = await startTestServer();
  agent = await createAgent(t.api);
  // Nothing listens on port 9: agent replies stay pending, which is all these tests need.
  channel = await createChatApiChannel(t.api, { webhook_url: 'http://127.0.0.1:9/hook', agent_ids: [agent.id] });
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
});

let senders = 0;
/** Posts a customer message and reads back the chat the agent sees. */
async function customerChat(text: string, sender: Record<string, unknown> = {}, id: string | number = `c-${++senders}`) {
  const res = await postCustomerMessage(t.api, channel.endpoint, id, text, sender);
  expect(res.status).toBe(200);
  const chats = (await t.api.get('/api/v1/chats', agent.token)).body.chats as { id: number; client: Record<string, unknown> }[];
  const chat = chats.find((c) => c.client.id === String(id).replaceAll('\u0000', ''))!;
  const messages = (await t.api.get(`/api/v1/chats/${chat.id}/messages`, agent.token)).body.messages as { text?: string }[];
  return { chat, messages };
}

describe('text a party sends', () => {
  describe('with NUL and other C0 control characters', () => {
    it('answers 200 and keeps the text without them, tab, newline and carriage return kept', async () => {
      const { chat, messages } = await customerChat('a\u0000b\u0007c\td\ne\rf\u001Fg', { name: 'Ann\u0000a' }, 'id\u0000-1');
      expect(messages.at(-1)?.text).toBe('abc\td\ne\rfg');
      expect(chat.client.name).toBe('Anna');
      expect(chat.client.id).toBe('id-1');
    });

    it('refuses a message that is nothing but control characters as empty', async () => {
      const res = await postCustomerMessage(t.api, channel.endpoint, 'c-empty', '\u0000\u0001');
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/message\.text/);
    });

    it("keeps an agent's message without them", async () => {
      const { chat } = await customerChat('hello');
      const res = await t.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Hi\u0000 there\u000B' }, agent.token);
      expect(res.status).toBe(201);
      const messages = (await t.api.get(`/api/v1/chats/${chat.id}/messages`, agent.token)).body.messages as { text?: string }[];
      expect(messages.at(-1)?.text).toBe('Hi there');
    });

    it('cleans names in the admin API, keys included', async () => {
      const res = await t.api.post('/api/v1/departments', { name: 'Sa\u0000les', agent_ids: [] }, ADMIN_TOKEN);
      expect(res.status).toBe(201);
      expect((await t.api.get(`/api/v1/departments/${res.body.id}`, ADMIN_TOKEN)).body.name).toBe('Sales');
    });
  });

  describe('with lone UTF-16 surrogates', () => {
    it('stores U+FFFD in their place, and keeps pairs (emoji) whole', async () => {
      // JSON escapes: the body on the wire is valid UTF-8, its strings are not well-formed UTF-16.
      const raw = `{"sender":{"id":"s-${++senders}","name":"\\ud800x"},"message":{"type":"text","text":"a\\udc00b \\ud83d\\ude00"}}`;
      const res = await t.api.request('POST', channel.endpoint, { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      const chats = (await t.api.get('/api/v1/chats', agent.token)).body.chats as { id: number; client: { id: string; name: string } }[];
      const chat = chats.find((c) => c.client.id === `s-${senders}`)!;
      expect(chat.client.name).toBe('\uFFFDx');
      const messages = (await t.api.get(`/api/v1/chats/${chat.id}/messages`, agent.token)).body.messages as { text?: string }[];
      expect(messages.at(-1)?.text).toBe('a\uFFFDb \u{1F600}');
    });
  });

  describe('in an address', () => {
    it('answers 404 for a path with a control character, whatever the store', async () => {
      const requests: [string, string][] = [
        ['POST', `${channel.endpoint}%00`],
        ['GET', '/chat-api/%00/x/status'],
        ['GET', '/widget-api/%00/settings'],
        ['GET', '/files/%00/x'],
      ];
      for (const [method, path] of requests) {
        const res = await t.api.request(method, path, method === 'POST' ? { body: {} } : {});
        expect(res.status, path).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
    });

    it('cleans query values: an upload named with a NUL keeps the name without it', async () => {
      const res = await fetch(`${t.base}/api/v1/uploads?name=${encodeURIComponent('a\u0000b.txt')}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${agent.token}` },
        body: 'hello',
      });
      expect(res.status).toBe(201);
      expect(((await res.json()) as { file_name: string }).file_name).toBe('ab.txt');
    });
  });

  describe('over the visitor socket', () => {
    async function visit(auth: Record<string, unknown>) {
      const socket: VisitorSocket = io(`${t.base}${VISITOR_NAMESPACE}`, { auth, transports: ['websocket'], reconnection: false });
      sockets.push(socket);
      const session = await new Promise<WidgetSession>((resolve, reject) => {
        socket.once('session', resolve);
        socket.once('connect_error', reject);
      });
      return { socket, session };
    }

    it('refuses a widget id with a NUL as an unknown widget, not as a failure', async () => {
      await expect(visit({ widget_id: `${widget.public_id}\u0001x` })).rejects.toThrow(/not_found/);
    });

    it('stores messages and contact details without control characters, lone surrogates as U+FFFD', async () => {
      const { socket, session } = await visit({ widget_id: widget.public_id });
      const contact = await socket.emitWithAck('contact:set', { name: 'Bo\u0000b\ud800' });
      expect(contact.ok).toBe(true);
      const sent = await socket.emitWithAck('message:send', { client_msg_id: 'msg-000001', text: 'hi\u0000!\udfff' });
      expect(sent).toMatchObject({ ok: true, value: { text: 'hi!\uFFFD' } });
      const chats = (await t.api.get('/api/v1/chats', agent.token)).body.chats as { id: number; client: { id: string; name: string } }[];
      const chat = chats.find((c) => c.client.id === session.visitor_id)!;
      expect(chat.client.name).toBe('Bob\uFFFD');
      const messages = (await t.api.get(`/api/v1/chats/${chat.id}/messages`, agent.token)).body.messages as { text?: string }[];
      expect(messages.at(-1)?.text).toBe('hi!\uFFFD');
    });

    it('answers an event nested too deeply as a bad payload, and the socket keeps working', async () => {
      const { socket } = await visit({ widget_id: widget.public_id });
      let deep: unknown = 'x';
      for (let i = 0; i < 200; i++) deep = [deep];
      expect(await socket.emitWithAck('contact:set', deep as never)).toMatchObject({ ok: false });
      expect(await socket.emitWithAck('contact:set', { name: 'Cy' })).toEqual({ ok: true });
    });
  });

  it('refuses a body nested too deeply with 400', async () => {
    const res = await t.api.request('POST', channel.endpoint, { raw: `${'['.repeat(5000)}${']'.repeat(5000)}` });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
  });

  it('counts the nesting of a body without escapes as of one with them: 64 levels pass, 65 are refused', async () => {
    // Brackets inside strings are text, not nesting.
    const nested = (levels: number) =>
      `{"sender":{"id":"c-deep","name":"[[[{{{"},"message":${'['.repeat(levels - 1)}"]]}}}"${']'.repeat(levels - 1)}}`;
    const deepest = await t.api.request('POST', channel.endpoint, { raw: nested(64) });
    expect(deepest.status).toBe(400);
    expect(deepest.body.error.message).not.toMatch(/nested/);
    const tooDeep = await t.api.request('POST', channel.endpoint, { raw: nested(65) });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.error.message).toBe('The request body is nested more than 64 levels deep');
    // The same depth with an escape in the body takes the other path to the same answer.
    const escaped = await t.api.request('POST', channel.endpoint, { raw: nested(65).replace('c-deep', 'c-\\u0041') });
    expect(escaped.body.error.message).toBe('The request body is nested more than 64 levels deep');
  });
});
