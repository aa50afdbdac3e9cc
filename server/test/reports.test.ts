import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let ann: TestAgent;
let bob: TestAgent;
let shop: TestChannel;
let other: TestChannel;

const localDate = (tz: string, at = Date.now()) => new Intl.DateTimeFormat('en-CA', { timeZone: tz }).format(at);
const today = () => localDate('UTC');

async function chat(channel: TestChannel, customer: string, replies: { agent: TestAgent; waitMs?: number }[], close: boolean) {
  const posted = await postCustomerMessage(t.api, channel.endpoint, customer, 'Hello?');
  const chatId = posted.body.chat_id as number;
  for (const reply of replies) {
    if (reply.waitMs) await new Promise((r) => setTimeout(r, reply.waitMs));
    const res = await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Hi!' }, reply.agent.token);
    expect(res.status).toBe(201);
  }
  if (close) expect((await t.api.post(`/api/v1/chats/${chatId}/close`, {}, (replies[0]?.agent ?? ann).token)).status).toBe(200);
  return chatId;
}

beforeAll(async () => {
  integrator = await startFakeIntegrator();
  t = await startTestServer();
  ann = await createAgent(t.api, { name: 'Ann' });
  bob = await createAgent(t.api, { name: 'Bob' });
  shop = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [ann.id, bob.id], name: 'Shop' });
  other = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [ann.id], name: 'Other' });
  // Shop: one chat Ann answers after ~1.2 s, one both answer, one closed unanswered (missed), one still open.
  await chat(shop, 'c1', [{ agent: ann, waitMs: 1200 }], true);
  await chat(shop, 'c2', [{ agent: bob }, { agent: ann }], true);
  await chat(shop, 'c3', [], true);
  await chat(shop, 'c4', [], false);
  await chat(other, 'c5', [{ agent: ann }], false);
});

afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

describe('GET /api/v1/reports', () => {
  it('counts the chats of the period, the missed ones, response times and the agents who answered', async () => {
    const res = await t.api.get(`/api/v1/reports?from=${today()}&to=${today()}`, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: today(), to: today(), chats: 5, missed: 1, by_day: [{ date: today(), chats: 5, missed: 1 }] });
    expect(res.body.rating).toEqual({ positive: 0, negative: 0, csat: null });
    // three answered chats: two answered at once, one after ~1.2 s: the median is 0 s, the p90 1 s
    expect(res.body.first_response_seconds).toEqual({ median: 0, p90: 1 });
    expect(res.body.resolution_seconds.median).toBeGreaterThanOrEqual(0);
    expect(res.body.by_agent).toEqual([
      { agent_id: ann.id, name: 'Ann', chats: 3, first_response_seconds: { median: 0 }, rating: { positive: 0, negative: 0 } },
      { agent_id: bob.id, name: 'Bob', chats: 1, first_response_seconds: { median: 0 }, rating: { positive: 0, negative: 0 } },
    ]);
  });

  it('filters by channel and by agent', async () => {
    const byChannel = await t.api.get(`/api/v1/reports?from=${today()}&to=${today()}&channel_id=${other.id}`, ADMIN_TOKEN);
    expect(byChannel.body).toMatchObject({ chats: 1, missed: 0, by_agent: [{ agent_id: ann.id, chats: 1 }] });
    const byAgent = await t.api.get(`/api/v1/reports?from=${today()}&to=${today()}&agent_id=${bob.id}`, ADMIN_TOKEN);
    expect(byAgent.body).toMatchObject({ chats: 1, missed: 0 });
  });

  it('puts a chat on the day it was created in the time zone asked for', async () => {
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Paris']) {
      const day = localDate(tz);
      const from = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const to = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const res = await t.api.get(`/api/v1/reports?from=${from}&to=${to}&tz=${encodeURIComponent(tz)}`, ADMIN_TOKEN);
      expect(res.body.by_day).toEqual([
        { date: from, chats: 0, missed: 0 },
        { date: day, chats: 5, missed: 1 },
        { date: to, chats: 0, missed: 0 },
      ]);
    }
  });

  it('answers CSV with a header row and one row per day when asked for text/csv', async () => {
    const res = await t.api.request('GET', `/api/v1/reports?from=${today()}&to=${today()}`, {
      token: ADMIN_TOKEN,
      headers: { accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.body).toBe(`date,chats,missed\r\n${today()},5,1\r\n`);
  });

  it('answers 400 or 404 naming the problem for bad input, and 401 without the admin token', async () => {
    const bad = async (query: string) => (await t.api.get(`/api/v1/reports?${query}`, ADMIN_TOKEN)).body.error;
    expect(await bad('from=2026-01-01')).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('to') });
    expect(await bad('from=2026-02-30&to=2026-03-01')).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('from') });
    expect(await bad('from=2026-03-02&to=2026-03-01')).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('to') });
    expect(await bad('from=2026-03-01&to=2026-03-02&tz=Mars/Olympus')).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('tz'),
    });
    expect(await bad('from=2020-01-01&to=2026-03-02')).toMatchObject({ code: 'invalid_request' });
    expect(await bad('from=2026-03-01&to=2026-03-02&channel_id=abc')).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('channel_id'),
    });
    const unknown = await t.api.get(`/api/v1/reports?from=2026-03-01&to=2026-03-02&agent_id=999999`, ADMIN_TOKEN);
    expect(unknown.status).toBe(404);
    expect((await t.api.get(`/api/v1/reports?from=2026-03-01&to=2026-03-02`, ann.token)).status).toBe(401);
  });
});
