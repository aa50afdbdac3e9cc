import type { SearchResultView, SearchResultsView } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let ann: TestAgent;
let bob: TestAgent;
let shop: TestChannel;
let bobsShop: TestChannel;

/** A word no other test writes: letters only, so every tokenizer keeps it whole. */
const unique = (stem: string) =>
  `${stem}${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

async function customerSays(text: string, sender: Record<string, unknown> = {}, channel = shop, customer = unique('c')) {
  const posted = await postCustomerMessage(t.api, channel.endpoint, customer, text, sender);
  expect(posted.status).toBe(200);
  return { chatId: posted.body.chat_id as number, customer };
}

async function search(q: string, token = ann.token, limit?: number) {
  const params = new URLSearchParams({ q, ...(limit === undefined ? {} : { limit: String(limit) }) });
  return t.api.get<SearchResultsView>(`/api/v1/search?${params}`, token);
}

async function found(q: string, token = ann.token): Promise<SearchResultView[]> {
  const res = await search(q, token);
  expect(res.status).toBe(200);
  return res.body.results;
}

const marked = (r: SearchResultView) => r.highlights.map((h) => r.snippet.slice(h.start, h.end));

beforeAll(async () => {
  integrator = await startFakeIntegrator();
  t = await startTestServer({ SVC_RETENTION_SWEEP_S: '0.2' });
  ann = await createAgent(t.api, { name: 'Ann' });
  bob = await createAgent(t.api, { name: 'Bob' });
  shop = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [ann.id] });
  bobsShop = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [bob.id], name: "Bob's shop" });
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

describe('search', () => {
  describe('over message text', () => {
    it('finds every word of the query, case and diacritics ignored, with the matching words marked', async () => {
      const word = unique('latte');
      const { chatId } = await customerSays(`Un café ${word} au lait, s'il vous plaît`);
      const [hit] = await found(`CAFE ${word.toUpperCase()}`);
      expect(hit).toMatchObject({ chat_id: chatId, match: 'message', snippet: `Un café ${word} au lait, s'il vous plaît` });
      expect(marked(hit!)).toEqual(['café', word]);
      expect(await found(`café ${word} tea`)).toEqual([]);
    });

    it('finds Cyrillic and Greek words in any case', async () => {
      const { chatId: russian } = await customerSays('Привет! Где мой ЗАКАЗ номер семь?');
      const { chatId: greek } = await customerSays('Γεια σας, θέλω επιστροφή χρημάτων');
      expect((await found('заказ')).map((r) => r.chat_id)).toContain(russian);
      expect((await found('ПРИВЕТ')).map((r) => r.chat_id)).toContain(russian);
      const [hit] = (await found('επιστροφή')).filter((r) => r.chat_id === greek);
      expect(marked(hit!)).toEqual(['επιστροφή']);
    });

    it('takes the last word as the start of a word, since the agent may still be typing it', async () => {
      const word = unique('chocolate');
      const { chatId } = await customerSays(`Do you sell ${word}?`);
      const [hit] = await found(word.slice(0, -3));
      expect(hit).toMatchObject({ chat_id: chatId });
      expect(marked(hit!)).toEqual([word]);
    });

    it('lists the newest first, and at most `limit`', async () => {
      const word = unique('parcel');
      const first = await customerSays(`First ${word}`);
      const second = await customerSays(`Second ${word}`);
      const reply = await t.api.post(`/api/v1/chats/${first.chatId}/messages`, { type: 'text', text: `Your ${word} left` }, ann.token);
      const results = await found(word);
      expect(results.map((r) => r.message_id)).toEqual([reply.body.message.id, expect.any(Number), expect.any(Number)]);
      expect(results.map((r) => r.chat_id)).toEqual([first.chatId, second.chatId, first.chatId]);
      const times = results.map((r) => Date.parse(r.created_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect((await search(word, ann.token, 1)).body.results).toHaveLength(1);
    });

    it("finds private notes for the channel's agents", async () => {
      const word = unique('secret');
      const { chatId } = await customerSays('Hello');
      const note = await t.api.post(`/api/v1/chats/${chatId}/notes`, { text: `VIP customer ${word}` }, ann.token);
      expect(note.status).toBe(201);
      expect(await found(word)).toMatchObject([{ chat_id: chatId, message_id: note.body.message.id, match: 'message' }]);
    });

    it('cuts a long message to the words around the match', async () => {
      const word = unique('needle');
      const text = `${'hay '.repeat(200)}${word} ${'straw '.repeat(200)}`;
      await customerSays(text);
      const [hit] = await found(word);
      expect(hit!.snippet.length).toBeLessThan(200);
      expect(hit!.snippet.startsWith('… hay')).toBe(true);
      expect(marked(hit!)).toEqual([word]);
    });
  });

  describe("over the client's name, e-mail and phone", () => {
    it('finds the chat by a word of the e-mail, the name or the phone', async () => {
      const surname = unique('petrova');
      const { chatId } = await customerSays('Hi there', {
        name: 'Olga Smirnova',
        email: `olga.${surname}@mail.example`,
        phone: '+7 912 555-0187',
      });
      expect(await found(surname)).toMatchObject([
        { chat_id: chatId, match: 'client', snippet: `Olga Smirnova · olga.${surname}@mail.example · +7 912 555-0187` },
      ]);
      expect(marked((await found(`olga.${surname}@mail.example`))[0]!)).toEqual(['Olga', 'olga', surname, 'mail', 'example']);
      expect((await found(`smirnova ${surname}`)).map((r) => r.chat_id)).toEqual([chatId]);
      expect((await found(`555-0187 ${surname}`)).map((r) => r.chat_id)).toEqual([chatId]);
    });

    it('follows a change of the profile: the new name is found, the old one no more', async () => {
      const before = unique('oldname');
      const after = unique('newname');
      const customer = unique('c');
      const { chatId } = await customerSays('One', { name: before }, shop, customer);
      await customerSays('Two', { name: after }, shop, customer);
      expect(await found(before)).toEqual([]);
      expect((await found(after)).map((r) => r.chat_id)).toEqual([chatId]);
    });
  });

  describe('what the caller may see', () => {
    it("never lists another channel's chat", async () => {
      const word = unique('private');
      const { chatId } = await customerSays(`Bob only ${word}`, { name: word }, bobsShop);
      expect(await found(word, ann.token)).toEqual([]);
      expect((await found(word, bob.token)).map((r) => r.chat_id)).toEqual([chatId, chatId]);
    });

    it('answers 401 without an agent token', async () => {
      expect((await t.api.get('/api/v1/search?q=hello')).status).toBe(401);
      expect((await t.api.get('/api/v1/search?q=hello', ADMIN_TOKEN)).status).toBe(401);
    });
  });

  describe('erasure', () => {
    it('finds no word of a customer erased on request: not what they wrote, not their name or e-mail', async () => {
      const word = unique('erased');
      const { chatId, customer } = await customerSays(`My card ${word}`, { name: `Eve ${word}x`, email: `${word}y@mail.example` });
      // the message, and the client (the last word is also the start of their name's and e-mail's words)
      expect((await found(word)).map((r) => r.chat_id)).toEqual([chatId, chatId]);
      const clientId = (await t.api.get(`/api/v1/chats/${chatId}`, ann.token)).body.chat.client.id as string;
      expect(clientId).toContain(customer);
      expect((await t.api.delete(`/api/v1/channels/${shop.id}/clients/${encodeURIComponent(clientId)}`, ADMIN_TOKEN)).status).toBe(204);
      expect(await found(word)).toEqual([]);
      expect(await found(`${word}x`)).toEqual([]);
      expect(await found(`${word}y`)).toEqual([]);
    });

    it('finds nothing of a chat the retention erased', async () => {
      const channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [ann.id], name: 'Short memory' });
      const word = unique('expired');
      const { chatId } = await customerSays(`Old ${word}`, {}, channel);
      await t.api.post(`/api/v1/chats/${chatId}/close`, {}, ann.token);
      expect((await found(word)).map((r) => r.chat_id)).toEqual([chatId]);
      await t.api.patch(`/api/v1/channels/${channel.id}`, { retention_days: 0.00001 }, ADMIN_TOKEN);
      await expect.poll(async () => (await found(word)).length, { timeout: 5000 }).toBe(0);
    });
  });

  describe('when the query is bad', () => {
    it.each([
      ['no q', ''],
      ['an empty q', 'q='],
      ['only spaces', 'q=%20%20'],
      ['only punctuation', `q=${encodeURIComponent('"*-() ?!')}`],
      ['10 KB', `q=${'a'.repeat(10_240)}`],
      ['two q', 'q=a&q=b'],
    ])('answers 400 naming q for %s', async (_, query) => {
      const res = await t.api.get(`/api/v1/search?${query}`, ann.token);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.message).toContain('q');
    });

    it.each(['0', '101', 'ten', '1.5', '-1'])('answers 400 naming limit for limit=%s', async (limit) => {
      const res = await t.api.get(`/api/v1/search?q=hello&limit=${limit}`, ann.token);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('limit');
    });

    it('takes the index syntax of either store as plain words, never a 500', async () => {
      const word = unique('quoted');
      const { chatId } = await customerSays(`A NEAR miss ${word} and more`);
      for (const q of [
        `"${word}`,
        `${word}*`,
        `NEAR(${word} miss)`,
        `-${word}`,
        `${word} -miss`,
        `${word} OR nothing`,
        `text:${word}`,
        `'${word}'`,
        `${word} & | ! <-> :*`,
      ]) {
        const res = await search(q);
        expect(res.status, q).toBe(200);
      }
      expect((await found(`NEAR(${word} miss)`)).map((r) => r.chat_id)).toEqual([chatId]);
      expect((await found(`"${word}" -miss`)).map((r) => r.chat_id)).toEqual([chatId]);
      expect(await found(`${word} OR nothing`)).toEqual([]);
      for (const q of ['AND', 'OR', 'NOT', 'NEAR', 'a:b']) expect((await search(q)).status, q).toBe(200);
      for (const q of ['"', '*', '^', ':*', '<->']) expect((await search(q)).status, q).toBe(400);
    });
  });
});
