import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let agent: TestAgent;
let channel: TestChannel;

beforeAll(async () => {
  t = await startTestServer();
  integrator = await startFakeIntegrator();
  agent = await createAgent(t.api, { name: 'Pager' });
  channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

async function say(senderId: string, text: string): Promise<number> {
  const res = await postCustomerMessage(t.api, channel.endpoint, senderId, text);
  expect(res.status).toBe(200);
  return res.body.chat_id as number;
}

interface Page {
  chats: { id: number; last_message: { text: string } | null }[];
  next: string | null;
  total: number;
}

describe('paging the inbox', () => {
  const senders = Array.from({ length: 23 }, (_, i) => `inbox-${i}`);
  let chatIds: number[] = [];

  beforeAll(async () => {
    chatIds = [];
    for (const s of senders) chatIds.push(await say(s, `first of ${s}`));
  });

  it('walks every chat exactly once while new messages reorder the inbox', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const res = await t.api.get<Page>(`/api/v1/chats?state=open&limit=5${query}`, agent.token);
      expect(res.status).toBe(200);
      expect(res.body.chats.length).toBeLessThanOrEqual(5);
      seen.push(...res.body.chats.map((c) => c.id));
      cursor = res.body.next;
      pages += 1;
      // Meanwhile: the oldest chat not listed yet and one already listed get a message (both jump to the top of
      // the live inbox), and a new customer writes.
      const unseen = chatIds.filter((id) => !seen.includes(id));
      if (unseen.length > 0) await say(senders[chatIds.indexOf(unseen[0]!)]!, `moved during page ${pages}`);
      await say(senders[chatIds.indexOf(seen[0]!)]!, `again during page ${pages}`);
      await say(`newcomer-${pages}`, 'hello');
    } while (cursor !== null && pages < 20);
    expect(pages).toBe(5);
    expect([...seen].sort((a, b) => a - b)).toEqual([...chatIds].sort((a, b) => a - b));
  });

  it('orders each page by the most recent message and counts the chats of the tab', async () => {
    const latest = await say(senders[7]!, 'the newest');
    const first = await t.api.get<Page>('/api/v1/chats?state=open&limit=3', agent.token);
    expect(first.body.chats[0]).toMatchObject({ id: latest, last_message: { text: 'the newest' } });
    const all = await t.api.get<Page>('/api/v1/chats?state=open', agent.token);
    expect(first.body.total).toBe(all.body.chats.length);
    expect(all.body.next).toBeNull();
    expect(all.body.chats.slice(0, 3).map((c) => c.id)).toEqual(first.body.chats.map((c) => c.id));
    const closed = await t.api.get<Page>('/api/v1/chats?state=closed&limit=3', agent.token);
    expect(closed.body).toEqual({ chats: [], next: null, total: 0 });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=ten', 'limit'],
    ['limit=2.5', 'limit'],
    ['limit=5&cursor=not-a-cursor', 'cursor'],
    [`limit=5&cursor=${Buffer.from('i1.1.2').toString('base64url')}`, 'cursor'],
  ])('answers 400 invalid_request naming the field for %s', async (query, field) => {
    const res = await t.api.get(`/api/v1/chats?state=open&${query}`, agent.token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(field);
  });
});

describe("paging a chat's messages", () => {
  let chatId: number;
  const sender = 'long-talker';

  beforeAll(async () => {
    for (let i = 1; i <= 12; i++) chatId = await say(sender, `m${i}`);
  });

  const texts = (body: { messages: { text: string }[] }) => body.messages.map((m) => m.text);

  it('answers the newest page first, oldest first within it, then older pages down to the first message', async () => {
    const newest = await t.api.get(`/api/v1/chats/${chatId}/messages?limit=5`, agent.token);
    expect(newest.status).toBe(200);
    expect(texts(newest.body)).toEqual(['m8', 'm9', 'm10', 'm11', 'm12']);
    expect(newest.body.next).toBe(newest.body.messages[0].id);

    await say(sender, 'arrived while scrolling');
    const older = await t.api.get(`/api/v1/chats/${chatId}/messages?limit=5&before=${newest.body.next}`, agent.token);
    expect(texts(older.body)).toEqual(['m3', 'm4', 'm5', 'm6', 'm7']);
    const oldest = await t.api.get(`/api/v1/chats/${chatId}/messages?limit=5&before=${older.body.next}`, agent.token);
    expect(oldest.body).toEqual({
      messages: [expect.objectContaining({ text: 'm1' }), expect.objectContaining({ text: 'm2' })],
      next: null,
    });
  });

  it('answers every message without limit, as before paging', async () => {
    const all = await t.api.get(`/api/v1/chats/${chatId}/messages`, agent.token);
    expect(texts(all.body)).toEqual([...Array.from({ length: 12 }, (_, i) => `m${i + 1}`), 'arrived while scrolling']);
    expect(all.body.next).toBeNull();
  });

  it.each([['limit=0'], ['limit=500'], ['limit=x'], ['before=0'], ['before=-3'], ['before=abc'], ['limit=5&before=1e400']])(
    'answers 400 invalid_request for %s',
    async (query) => {
      const res = await t.api.get(`/api/v1/chats/${chatId}/messages?${query}`, agent.token);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/limit|before/) });
    },
  );
});
