import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

type Fake = Awaited<ReturnType<typeof startFakeIntegrator>>;
let t: TestServer;
let owner: Fake;
let agent: TestAgent;
let widget: { id: number; public_id: string };

const leaveOfflineMessage = (message: string) =>
  t.api.post(`/widget-api/${widget.public_id}/offline-messages`, { email: 'ann@example.com', message });
const log = async (query = '') => (await t.api.get(`/api/v1/channels/${widget.id}/deliveries${query}`, ADMIN_TOKEN)).body.deliveries;
const until = async <T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> => {
  for (let i = 0; i < 100; i += 1) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
};

beforeAll(async () => {
  owner = await startFakeIntegrator(() => ({ status: 200, body: { result: 'FAILURE' } }));
  t = await startTestServer({ SVC_WEBHOOK_TIMEOUT_MS: '500', SVC_DELIVERY_INTERVAL_MS: '200', SVC_LOG_LEVEL: 'error' });
  agent = await createAgent(t.api);
  widget = (
    await t.api.post(
      '/api/v1/channels',
      {
        kind: 'widget',
        name: 'Logged shop',
        agent_ids: [agent.id],
        webhook_url: `${owner.url}/hooks`,
        webhook_events: ['offline_message'],
      },
      ADMIN_TOKEN,
    )
  ).body;
});
afterAll(async () => {
  await t.dispose();
  await owner.close();
});

describe('delivery log and replay', () => {
  it("logs each attempt with the receiver's answer and how long it took", async () => {
    await leaveOfflineMessage('first');
    const [failed] = await until(
      () => log('?state=failed'),
      (d) => d.length === 1,
    );
    expect(failed).toMatchObject({ kind: 'webhook', state: 'failed', replay_of: null, replayed_by: null });
    expect(failed.last_error).toBe("The owner's server answered: FAILURE");
    expect(failed.attempts).toHaveLength(1);
    expect(failed.attempts[0]).toMatchObject({ status: 200, answer: '{"result":"FAILURE"}' });
    expect(failed.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('replays one failed delivery with the same event id; the receiver gets the same webhook-id', async () => {
    owner.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
    const [failed] = await log('?state=failed');
    const before = owner.received.length;
    const res = await t.api.post(`/api/v1/channels/${widget.id}/deliveries/${failed.id}/replay`, {}, ADMIN_TOKEN);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ replay_of: failed.id, event_id: failed.event_id, state: 'pending', payload: failed.payload });
    await owner.waitFor(before + 1);
    const sent = owner.received.at(-1)!;
    expect(sent.headers['webhook-id']).toBe(failed.event_id);
    expect(sent.body.message).toBe('first');
    const replay = await until(
      async () => (await log()).find((d: { id: number }) => d.id === res.body.id),
      (d) => d?.state === 'delivered',
    );
    expect(replay.attempts[0]).toMatchObject({ status: 200, answer: '{"result":"ok"}' });
    expect((await log()).find((d: { id: number }) => d.id === failed.id).replayed_by).toBe(res.body.id);

    const again = await t.api.post(`/api/v1/channels/${widget.id}/deliveries/${failed.id}/replay`, {}, ADMIN_TOKEN);
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe('This delivery was already replayed, or its message was sent again since');
    const delivered = await t.api.post(`/api/v1/channels/${widget.id}/deliveries/${res.body.id}/replay`, {}, ADMIN_TOKEN);
    expect(delivered.status).toBe(400);
    expect(delivered.body.error.message).toBe('Only failed deliveries can be replayed; this one is delivered');
  });

  it('replays every failed delivery of a time range once, oldest first', async () => {
    owner.setResponder(() => ({ status: 200, body: { result: 'FAILURE' } }));
    const since = new Date().toISOString();
    await leaveOfflineMessage('second');
    await leaveOfflineMessage('third');
    await until(
      () => log(`?state=failed&since=${encodeURIComponent(since)}`),
      (d) => d.length === 2,
    );
    owner.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
    const range = { since, until: new Date(Date.now() + 1000).toISOString() };
    const before = owner.received.length;
    const res = await t.api.post(`/api/v1/channels/${widget.id}/deliveries/replay`, range, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body.replayed).toHaveLength(2);
    expect(res.body.more).toBe(false);
    await owner.waitFor(before + 2);
    expect(owner.received.slice(before).map((r) => r.body.message)).toEqual(['second', 'third']);
    expect((await t.api.post(`/api/v1/channels/${widget.id}/deliveries/replay`, range, ADMIN_TOKEN)).body.replayed).toEqual([]);
  });

  it('replays a failed Chat API message: it is pending again for the agent, then delivered', async () => {
    const integrator = await startFakeIntegrator(() => ({ status: 200, body: { error: { code: 1, message: 'maintenance' } } }));
    try {
      const channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
      await postCustomerMessage(t.api, channel.endpoint, 'c-1', 'hello');
      const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find((c: any) => c.channel_id === channel.id);
      const sent = (await t.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'hi back' }, agent.token)).body.message;
      const message = async () =>
        (await t.api.get(`/api/v1/chats/${chat.id}/messages`, agent.token)).body.messages.find((m: any) => m.id === sent.id);
      expect(await until(message, (m) => m.delivery === 'failed')).toMatchObject({
        error: 'The integrator refused the message: maintenance',
      });
      const [failed] = (await t.api.get(`/api/v1/channels/${channel.id}/deliveries?kind=chat_api&state=failed`, ADMIN_TOKEN)).body
        .deliveries;
      integrator.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
      expect((await t.api.post(`/api/v1/channels/${channel.id}/deliveries/${failed.id}/replay`, {}, ADMIN_TOKEN)).status).toBe(201);
      expect(await until(message, (m) => m.delivery === 'delivered')).toMatchObject({ delivery: 'delivered' });
      expect(integrator.received.at(-1)!.headers['webhook-id']).toBe(failed.event_id);
    } finally {
      await integrator.close();
    }
  });

  it('refuses a bad range, and answers 404 for a delivery of another channel or an unknown one', async () => {
    const bad = await t.api.post(
      `/api/v1/channels/${widget.id}/deliveries/replay`,
      { since: '2026-11-22T10:00:00Z', until: '2026-11-22T09:00:00Z' },
      ADMIN_TOKEN,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('until must be later than since');
    const notTime = await t.api.post(`/api/v1/channels/${widget.id}/deliveries/replay`, { since: 'yesterday', until: 'now' }, ADMIN_TOKEN);
    expect(notTime.body.error.message).toContain('since: must be an ISO 8601 time');
    const other = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Other', agent_ids: [] }, ADMIN_TOKEN)).body;
    const [mine] = await log();
    expect((await t.api.post(`/api/v1/channels/${other.id}/deliveries/${mine.id}/replay`, {}, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.post(`/api/v1/channels/${widget.id}/deliveries/999999/replay`, {}, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.post(`/api/v1/channels/${widget.id}/deliveries/replay`, { since: 'x' }, agent.token)).status).toBe(401);
  });
});
