import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DELIVERY_CONCURRENCY } from '../src/delivery/delivery-worker.ts';
import { PER_CHANNEL_IN_FLIGHT } from '../src/store/deliveries.ts';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let agent: TestAgent;
let channel: TestChannel;

beforeEach(async () => {
  integrator = await startFakeIntegrator();
  t = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '150', SVC_DELIVERY_ATTEMPTS: '3' });
  agent = await createAgent(t.api);
  channel = await createChatApiChannel(t.api, { webhook_url: `${integrator.url}/hooks/`, agent_ids: [agent.id] });
});
afterEach(async () => {
  await t.dispose();
  await integrator.close();
});

async function messageState(chatId: number, messageId: number, until: (m: any) => boolean, api = t.api, token = agent.token) {
  for (let i = 0; i < 100; i++) {
    const list = await api.get(`/api/v1/chats/${chatId}/messages`, token);
    const m = list.body.messages.find((x: { id: number }) => x.id === messageId);
    if (m && until(m)) return m;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('message never reached the expected state');
}

describe('delivery of agent replies to a Chat API integrator', () => {
  it('posts the spec 2.1 shape to <webhook_url>/<public_id> and marks the message delivered', async () => {
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 42, 'hi');
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'Hello!' }, agent.token);
    await integrator.waitFor(1);
    const req = integrator.received[0]!;
    expect(req.path).toBe(`/hooks/${channel.public_id}`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength(req.raw)));
    expect(req.body).toEqual({
      sender: { name: agent.name },
      recipient: { id: 42 },
      message: { type: 'text', id: String(sent.body.message.id), text: 'Hello!' },
    });
    const m = await messageState(inbound.body.chat_id, sent.body.message.id, (x) => x.delivery !== 'pending');
    expect(m.delivery).toBe('delivered');
  });

  it('retries a 503 at the configured interval and delivers on the third attempt', async () => {
    integrator.setResponder(() => (integrator.received.length < 3 ? { status: 503 } : { status: 200, body: { result: 'ok' } }));
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'ann', 'hi');
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'x' }, agent.token);
    const m = await messageState(inbound.body.chat_id, sent.body.message.id, (x) => x.delivery !== 'pending');
    expect(m.delivery).toBe('delivered');
    expect(integrator.received).toHaveLength(3);
    const gaps = integrator.received.slice(1).map((r, i) => r.at - integrator.received[i]!.at);
    // Spaced by the 150 ms interval (start to start), not sent back to back.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(100);
  });

  it('fails after the last attempt when the integrator keeps answering 500, with an error the agent sees', async () => {
    integrator.setResponder(() => ({ status: 500 }));
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'ann', 'hi');
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'x' }, agent.token);
    const m = await messageState(inbound.body.chat_id, sent.body.message.id, (x) => x.delivery !== 'pending');
    expect(m.delivery).toBe('failed');
    expect(m.error).toMatch(/after 3 attempts.*HTTP 500/);
    expect(integrator.received).toHaveLength(3);
  });

  it('starts the attempts to a hanging integrator one interval apart (spec 8: three attempts within 9 s at defaults)', async () => {
    integrator.setResponder(() => 'hang');
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'ann', 'hi');
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'x' }, agent.token);
    const m = await messageState(inbound.body.chat_id, sent.body.message.id, (x) => x.delivery !== 'pending');
    expect(m.delivery).toBe('failed');
    expect(integrator.received).toHaveLength(3);
    const gaps = integrator.received.slice(1).map((r, i) => r.at - integrator.received[i]!.at);
    // 150 ms apart from start to start; waiting for the timeout first would make them 300 ms apart.
    for (const gap of gaps) expect(gap).toBeLessThan(280);
  });

  it('takes an {error} answer as final and shows its message', async () => {
    integrator.setResponder(() => ({ status: 200, body: { error: { code: 7, message: 'User blocked the bot' } } }));
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'ann', 'hi');
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'x' }, agent.token);
    const m = await messageState(inbound.body.chat_id, sent.body.message.id, (x) => x.delivery !== 'pending');
    expect(m).toMatchObject({ delivery: 'failed', error: expect.stringContaining('User blocked the bot') });
    expect(integrator.received).toHaveLength(1);
  });

  it('keeps the order of one chat while a message is being retried', async () => {
    integrator.setResponder(() => (integrator.received.length === 1 ? { status: 503 } : { status: 200, body: { result: 'ok' } }));
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'ann', 'hi');
    for (const text of ['one', 'two', 'three']) {
      await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text }, agent.token);
    }
    await integrator.waitFor(4);
    const texts = integrator.received.map((r) => r.body.message.text);
    expect(texts).toEqual(['one', 'one', 'two', 'three']);
  });

  it('sends nothing after a message that failed inside a run of one chat until that message is delivered', async () => {
    // The first reply is held while four more are stored, so the chat's next rows go out as one run behind it;
    // the second reply's first attempt is answered 503. Attempts time out after 2 s here, so the hold is no timeout.
    const server = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '2000', SVC_DELIVERY_ATTEMPTS: '3' });
    try {
      let secondTries = 0;
      integrator.setResponder((req) => {
        const text = (req.body as { message: { text: string } }).message.text;
        if (text === 'one') return { status: 200, body: { result: 'ok' }, delayMs: 500 };
        if (text === 'two' && ++secondTries === 1) return { status: 503 };
        return { status: 200, body: { result: 'ok' } };
      });
      const a = await createAgent(server.api);
      const ch = await createChatApiChannel(server.api, { webhook_url: integrator.url, agent_ids: [a.id] });
      const inbound = await postCustomerMessage(server.api, ch.endpoint, 'run', 'hi');
      const ids: number[] = [];
      for (const text of ['one', 'two', 'three', 'four', 'five']) {
        const sent = await server.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text }, a.token);
        ids.push(sent.body.message.id);
      }
      await integrator.waitFor(6, 8000);
      expect(integrator.received.map((r) => r.body.message.text)).toEqual(['one', 'two', 'two', 'three', 'four', 'five']);
      const last = await messageState(inbound.body.chat_id, ids[4]!, (m) => m.delivery === 'delivered', server.api, a.token);
      expect(last.delivery).toBe('delivered');
    } finally {
      await server.dispose();
    }
  });

  it('does not let a hanging integrator hold up another channel', async () => {
    // Attempts time out only after 5 s here, so the other channel is served while the first still hangs.
    const slowServer = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '5000' });
    const other = await startFakeIntegrator();
    try {
      integrator.setResponder(() => 'hang');
      const a = await createAgent(slowServer.api);
      const hanging = await createChatApiChannel(slowServer.api, { webhook_url: integrator.url, agent_ids: [a.id] });
      const healthy = await createChatApiChannel(slowServer.api, { webhook_url: other.url, agent_ids: [a.id] });
      const slow = await postCustomerMessage(slowServer.api, hanging.endpoint, 'slow', 'hi');
      const fast = await postCustomerMessage(slowServer.api, healthy.endpoint, 'fast', 'hi');
      await slowServer.api.post(`/api/v1/chats/${slow.body.chat_id}/messages`, { type: 'text', text: 'to slow' }, a.token);
      await integrator.waitFor(1);
      await slowServer.api.post(`/api/v1/chats/${fast.body.chat_id}/messages`, { type: 'text', text: 'to fast' }, a.token);
      await other.waitFor(1, 4000);
      expect(integrator.received).toHaveLength(1);
    } finally {
      await other.close();
      await integrator.close();
      await slowServer.dispose();
    }
  });

  it('does not let one hanging integrator with many chats take every sending slot', async () => {
    const slowServer = await startTestServer({ SVC_DELIVERY_INTERVAL_MS: '5000' });
    const other = await startFakeIntegrator();
    try {
      integrator.setResponder(() => 'hang');
      const a = await createAgent(slowServer.api);
      const hanging = await createChatApiChannel(slowServer.api, { webhook_url: integrator.url, agent_ids: [a.id] });
      const healthy = await createChatApiChannel(slowServer.api, { webhook_url: other.url, agent_ids: [a.id] });
      // More chats waiting on the hanging integrator than the worker has slots.
      for (let i = 0; i < DELIVERY_CONCURRENCY + 8; i++) {
        const c = await postCustomerMessage(slowServer.api, hanging.endpoint, `slow-${i}`, 'hi');
        await slowServer.api.post(`/api/v1/chats/${c.body.chat_id}/messages`, { type: 'text', text: 'x' }, a.token);
      }
      await integrator.waitFor(PER_CHANNEL_IN_FLIGHT);
      const fast = await postCustomerMessage(slowServer.api, healthy.endpoint, 'fast', 'hi');
      await slowServer.api.post(`/api/v1/chats/${fast.body.chat_id}/messages`, { type: 'text', text: 'to fast' }, a.token);
      await other.waitFor(1, 4000);
      expect(integrator.received.length).toBeLessThanOrEqual(PER_CHANNEL_IN_FLIGHT);
    } finally {
      await other.close();
      await integrator.close();
      await slowServer.dispose();
    }
  });

  it('sends agent typing as typein and typeout', async () => {
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 7, 'hi');
    await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/typing`, { state: 'start' }, agent.token);
    await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/typing`, { state: 'stop' }, agent.token);
    await integrator.waitFor(2);
    expect(integrator.received.map((r) => r.body)).toEqual([
      { sender: { name: agent.name }, recipient: { id: 7 }, message: { type: 'typein' } },
      { sender: { name: agent.name }, recipient: { id: 7 }, message: { type: 'typeout' } },
    ]);
  });

  it('resumes pending retries after a restart on the same database', async () => {
    integrator.setResponder(() => ({ status: 503 }));
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 'ann', 'hi');
    const sent = await t.api.post(`/api/v1/chats/${inbound.body.chat_id}/messages`, { type: 'text', text: 'survives' }, agent.token);
    await integrator.waitFor(1);
    integrator.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
    t = await t.restart();
    const m = await messageState(inbound.body.chat_id, sent.body.message.id, (x) => x.delivery !== 'pending');
    expect(m.delivery).toBe('delivered');
    expect(integrator.received.at(-1)!.body.message.text).toBe('survives');
  });
});
