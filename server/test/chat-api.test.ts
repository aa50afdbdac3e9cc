import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let agent: TestAgent;
let channel: TestChannel;

beforeAll(async () => {
  integrator = await startFakeIntegrator();
  t = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '100', SVC_RATE_LIMITS: 'off' });
  agent = await createAgent(t.api);
  channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

const messagesOf = async (chatId: number) => (await t.api.get(`/api/v1/chats/${chatId}/messages`, agent.token)).body.messages as any[];

async function waitForDelivery(chatId: number, messageId: number) {
  for (let i = 0; i < 100; i++) {
    const m = (await messagesOf(chatId)).find((x) => x.id === messageId);
    if (m.delivery !== 'pending') return m;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('still pending');
}

describe('chat api intake', () => {
  it('answers 404 alike for a wrong random string, an unknown public id and a widget channel', async () => {
    const widget = await t.api.post('/api/v1/channels', { kind: 'widget', name: 'w', agent_ids: [] }, ADMIN_TOKEN);
    const wrongSecret = channel.endpoint.replace(String(channel.random_string), 'x'.repeat(32));
    const wrongId = `${channel.endpoint.slice(0, channel.endpoint.lastIndexOf('/'))}/nope`;
    const widgetEndpoint = `${t.base}/chat-api/${widget.body.random_string}/${widget.body.public_id}`;
    const answers = await Promise.all(
      [wrongSecret, wrongId, widgetEndpoint].map((url) => t.api.post(url, { sender: { id: 1 }, message: { type: 'text', text: 'x' } })),
    );
    for (const a of answers) expect(a).toMatchObject({ status: 404, body: answers[0]!.body });
    const statuses = await Promise.all([wrongSecret, wrongId, widgetEndpoint].map((url) => t.api.get(`${url}/status`)));
    for (const s of statuses) expect(s.status).toBe(404);
  });

  it('reads an endpoint whose segments are percent-encoded as the plain one, and a broken escape as no endpoint', async () => {
    const escape = (segment: string) => [...segment].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('');
    const encoded = `${t.base}/chat-api/${escape(String(channel.random_string))}/${escape(String(channel.public_id))}`;
    const res = await postCustomerMessage(t.api, encoded, 'escaped-endpoint', 'Hi');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'ok', chat_id: expect.any(Number) });
    const broken = await postCustomerMessage(t.api, `${t.base}/chat-api/${channel.random_string}/%E0%A4%A`, 'broken-endpoint', 'Hi');
    expect(broken.status).toBe(404);
    expect(broken.body.error.code).toBe('not_found');
  });

  it.each([
    [{ message: { type: 'text', text: 'x' } }],
    [{ sender: { id: '' }, message: { type: 'text', text: 'x' } }],
    [{ sender: { name: 'No id' }, message: { type: 'text', text: 'x' } }],
  ])('answers 400 with a clear message and stores nothing when sender.id is missing or blank: %j', async (body) => {
    const res = await t.api.post(channel.endpoint, body);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/sender/);
  });

  it('takes 42 and "42" as one customer, and returns the id as it first came', async () => {
    const a = await postCustomerMessage(t.api, channel.endpoint, 4242, 'number');
    const b = await postCustomerMessage(t.api, channel.endpoint, '4242', 'string');
    expect(b.body.chat_id).toBe(a.body.chat_id);
    const before = integrator.received.length;
    await t.api.post(`/api/v1/chats/${a.body.chat_id}/messages`, { type: 'text', text: 'hello' }, agent.token);
    await integrator.waitFor(before + 1);
    expect(integrator.received[before]!.body.recipient).toEqual({ id: 4242 });
  });

  it('takes a JSON body sent without a content type', async () => {
    const res = await t.api.request('POST', channel.endpoint, {
      raw: JSON.stringify({ sender: { id: 'raw' }, message: { type: 'text', text: 'plain' } }),
    });
    expect(res.status).toBe(200);
  });

  it('takes a UTF-8 body that starts with a byte order mark, and keeps non-ASCII text whole', async () => {
    const res = await t.api.request('POST', channel.endpoint, {
      raw: `\uFEFF${JSON.stringify({ sender: { id: 'bom' }, message: { type: 'text', text: 'Grüße, 你好 👋' } })}`,
    });
    expect(res.status).toBe(200);
    const messages = await t.api.get(`/api/v1/chats/${res.body.chat_id}/messages`, agent.token);
    expect(messages.body.messages.map((m: { text: string }) => m.text)).toContain('Grüße, 你好 👋');
  });

  it('updates the client profile from later messages and keeps "Anonymous" until a name, phone or email arrives', async () => {
    const first = await postCustomerMessage(t.api, channel.endpoint, 'prof', 'hi', {
      url: 'https://shop.example/p/1',
      invite: 'Need help?',
    });
    let chat = (await t.api.get(`/api/v1/chats/${first.body.chat_id}`, agent.token)).body.chat;
    expect(chat.client).toMatchObject({ display_name: 'Anonymous', url: 'https://shop.example/p/1', invite: 'Need help?' });
    await postCustomerMessage(t.api, channel.endpoint, 'prof', 'it is me', { name: 'Olga', photo: 'https://cdn.example/o.png' });
    chat = (await t.api.get(`/api/v1/chats/${first.body.chat_id}`, agent.token)).body.chat;
    expect(chat.client).toMatchObject({
      display_name: 'Olga',
      name: 'Olga',
      photo: 'https://cdn.example/o.png',
      url: 'https://shop.example/p/1',
    });
  });

  it('stores a media message with its file name taken from the URL when missing', async () => {
    const res = await t.api.post(channel.endpoint, {
      sender: { id: 'media' },
      message: { type: 'document', file: 'https://files.example/docs/price%20list.pdf' },
    });
    expect(res.status).toBe(200);
    const [m] = await messagesOf(res.body.chat_id);
    expect(m).toMatchObject({ type: 'document', file: 'https://files.example/docs/price%20list.pdf', file_name: 'price list.pdf' });
  });

  it('never stores typing as a message', async () => {
    const res = await postCustomerMessage(t.api, channel.endpoint, 'typist', 'hi');
    expect((await t.api.post(channel.endpoint, { sender: { id: 'typist' }, message: { type: 'typein' } })).status).toBe(200);
    expect((await t.api.post(channel.endpoint, { sender: { id: 'typist' }, message: { type: 'typeout' } })).status).toBe(200);
    expect(await messagesOf(res.body.chat_id)).toHaveLength(1);
  });

  describe('with an Idempotency-Key', () => {
    it('stores a repeated request once and answers it as the first time', async () => {
      const body = { sender: { id: 'idem' }, message: { type: 'text', text: 'once', id: 'constant' } };
      const first = await t.api.request('POST', channel.endpoint, { body, headers: { 'idempotency-key': 'k-1' } });
      const again = await t.api.request('POST', channel.endpoint, { body, headers: { 'idempotency-key': 'k-1' } });
      expect(again).toMatchObject({ status: 200, body: first.body });
      const other = await t.api.request('POST', channel.endpoint, { body, headers: { 'idempotency-key': 'k-2' } });
      expect(other.body.message_id).not.toBe(first.body.message_id);
      expect((await messagesOf(first.body.chat_id)).map((m) => m.text)).toEqual(['once', 'once']);
    });

    it('never takes message.id as a de-duplication key', async () => {
      const body = { sender: { id: 'same-id' }, message: { type: 'text', text: 'a', id: '1' } };
      const a = await t.api.post(channel.endpoint, body);
      await t.api.post(channel.endpoint, body);
      expect(await messagesOf(a.body.chat_id)).toHaveLength(2);
    });
  });

  it('answers every fuzzed payload with 200 or a 4xx JSON error, never a 5xx', async () => {
    const senderId = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.constant(undefined), fc.boolean());
    const messageType = fc.constantFrom(
      'text',
      'typein',
      'typeout',
      'video',
      'audio',
      'voice',
      'photo',
      'sticker',
      'document',
      'location',
      'fax',
      '',
      'TEXT',
    );
    const anyValue = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.constant(null),
      fc.webUrl(),
      fc.constant('javascript:alert(1)'),
      fc.array(fc.string()),
      fc.object(),
    );
    const payload = fc.oneof(
      fc.record(
        {
          sender: fc.oneof(
            fc.record({ id: senderId, name: anyValue, photo: anyValue, url: anyValue, phone: anyValue }, { requiredKeys: [] }),
            anyValue,
          ),
          message: fc.oneof(
            fc.record(
              {
                type: messageType,
                text: anyValue,
                file: anyValue,
                file_size: anyValue,
                latitude: anyValue,
                longitude: anyValue,
                thumb: anyValue,
                id: anyValue,
              },
              { requiredKeys: [] },
            ),
            anyValue,
          ),
        },
        { requiredKeys: [] },
      ),
      anyValue,
    );
    await fc.assert(
      fc.asyncProperty(payload, async (body) => {
        const res = await t.api.request('POST', channel.endpoint, { raw: JSON.stringify(body) ?? '' });
        expect([200, 400]).toContain(res.status);
        if (res.status !== 200) expect(res.body.error.code).toBe('invalid_request');
      }),
      { numRuns: 150 },
    );
    expect((await t.api.get('/healthz')).status).toBe(200);
  });
});

describe('chat api delivery', () => {
  it('signs each request in the Standard Webhooks form with the channel secret', async () => {
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'sig', 'hi');
    const before = integrator.received.length;
    await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'signed' }, agent.token);
    await integrator.waitFor(before + 1);
    const req = integrator.received[before]!;
    const secret = (await t.api.get(`/api/v1/channels/${channel.id}`, ADMIN_TOKEN)).body.signing_secret;
    expect(secret).toMatch(/^whsec_/);
    expect(() => new Webhook(secret).verify(req.raw, req.headers as Record<string, string>)).not.toThrow();
    expect(req.headers['webhook-id']).toMatch(/^evt_/);
  });

  it('rotates the signing secret: later requests verify with the new one only', async () => {
    const old = (await t.api.get(`/api/v1/channels/${channel.id}`, ADMIN_TOKEN)).body.signing_secret;
    const rotated = await t.api.post(`/api/v1/channels/${channel.id}/rotate-signing-secret`, undefined, ADMIN_TOKEN);
    expect(rotated.body.signing_secret).not.toBe(old);
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'sig2', 'hi');
    const before = integrator.received.length;
    await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'new secret' }, agent.token);
    await integrator.waitFor(before + 1);
    const req = integrator.received[before]!;
    expect(() => new Webhook(rotated.body.signing_secret).verify(req.raw, req.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(old).verify(req.raw, req.headers as Record<string, string>)).toThrow();
  });

  it("lists a channel's deliveries for admins, each with its attempts, filterable by state", async () => {
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'logged', 'hi');
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'logged reply' }, agent.token);
    await waitForDelivery(inbound.body.chat_id, sent.body.message.id);
    const res = await t.api.get(`/api/v1/channels/${channel.id}/deliveries?state=delivered&limit=5`, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    const row = res.body.deliveries.find((d: any) => d.message_id === sent.body.message.id);
    expect(row).toMatchObject({
      kind: 'chat_api',
      state: 'delivered',
      attempts: [{ status: 200, error: null }],
      payload: { message: { text: 'logged reply' } },
    });
    expect(row.event_id).toMatch(/^evt_/);
    expect((await t.api.get(`/api/v1/channels/${channel.id}/deliveries?state=lost`, ADMIN_TOKEN)).status).toBe(400);
    expect((await t.api.get(`/api/v1/channels/${channel.id}/deliveries`, agent.token)).status).toBe(401);
  });

  it('keeps the webhook-id across attempts', async () => {
    let calls = 0;
    integrator.setResponder(() => (++calls === 1 ? { status: 502 } : { status: 200, body: { result: 'ok' } }));
    try {
      const inbound = await postCustomerMessage(t.api, channel.endpoint, 'retry-id', 'hi');
      const before = integrator.received.length;
      await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'x' }, agent.token);
      await integrator.waitFor(before + 2);
      const [a, b] = integrator.received.slice(before);
      expect(a!.headers['webhook-id']).toBe(b!.headers['webhook-id']);
    } finally {
      integrator.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
    }
  });

  it('sends with chunked transfer encoding when the channel says so, and Content-Length otherwise', async () => {
    const chunkedChannel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id], chunked: true });
    const inbound = await postCustomerMessage(t.api, chunkedChannel.endpoint, 'chunky', 'hi');
    const before = integrator.received.length;
    await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'in chunks' }, agent.token);
    await integrator.waitFor(before + 1);
    const req = integrator.received[before]!;
    expect(req.headers['transfer-encoding']).toBe('chunked');
    expect(req.headers['content-length']).toBeUndefined();
    expect(req.body.message.text).toBe('in chunks');
  });

  it("sends a resend to the channel's current webhook_url, so fixing the URL and resending works", async () => {
    const broken = await startFakeIntegrator(() => ({ status: 200, body: { error: { code: 1, message: 'Gone' } } }));
    const fixed = await startFakeIntegrator();
    try {
      const ch = await createChatApiChannel(t.api, { webhook_url: broken.url, agent_ids: [agent.id] });
      const inbound = await postCustomerMessage(t.api, ch.endpoint, 'moved', 'hi');
      const sent = await t.api.post(
        `/api/v1/chats/${inbound.body.chat_id}/messages`,
        { type: 'text', text: 'to the new place' },
        agent.token,
      );
      expect((await waitForDelivery(inbound.body.chat_id, sent.body.message.id)).delivery).toBe('failed');
      await t.api.patch(`/api/v1/channels/${ch.id}`, { webhook_url: fixed.url }, ADMIN_TOKEN);
      await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages/${sent.body.message.id}/resend`, undefined, agent.token);
      expect((await waitForDelivery(inbound.body.chat_id, sent.body.message.id)).delivery).toBe('delivered');
      expect(fixed.received[0]!.path).toBe(`/${ch.public_id}`);
    } finally {
      await broken.close();
      await fixed.close();
    }
  });

  it('lets the agent resend a failed message through the outbox, with the same webhook-id', async () => {
    integrator.setResponder(() => ({ status: 200, body: { error: { code: 1, message: 'Try later' } } }));
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'resend', 'hi');
    const before = integrator.received.length;
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'again' }, agent.token);
    expect((await waitForDelivery(inbound.body.chat_id, sent.body.message.id)).delivery).toBe('failed');
    integrator.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
    const resent = await t.api.post(
      `/api/v1/chats/${inbound.body.chat_id}/messages/${sent.body.message.id}/resend`,
      undefined,
      agent.token,
    );
    expect(resent.status).toBe(200);
    expect(resent.body.message.delivery).toBe('pending');
    expect((await waitForDelivery(inbound.body.chat_id, sent.body.message.id)).delivery).toBe('delivered');
    const [first, second] = integrator.received.slice(before);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(second!.body).toEqual(first!.body);
    const twice = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages/${sent.body.message.id}/resend`, undefined, agent.token);
    expect(twice.status).toBe(400);
  });
});
