import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { createChatsRepo } from '../src/store/sqlite/chats-repo.ts';
import { IDEMPOTENCY_WINDOW_MS, type ChatsRepo, type NewClientMessage } from '../src/store/chats.ts';
import { openDb } from '../src/store/sqlite/db.ts';
import { createPgChatsRepo } from '../src/store/postgres/chats-repo.ts';
import { createClientMessageBatcher } from '../src/store/postgres/client-message-batch.ts';
import { openPgDb, type PgDb } from '../src/store/postgres/pg-db.ts';
import { createPgVisitorsRepo } from '../src/store/postgres/visitors-repo.ts';
import type { NewDelivery } from '../src/store/records.ts';
import { createVisitorsRepo } from '../src/store/sqlite/visitors-repo.ts';
import type { VisitorsRepo } from '../src/store/visitors.ts';
import type { MessagesRepo } from '../src/store/messages.ts';
import { createMessagesRepo } from '../src/store/sqlite/messages-repo.ts';
import { createPgMessagesRepo } from '../src/store/postgres/messages-repo.ts';
import { createWriteBatcher } from '../src/store/sqlite/write-batcher.ts';

const pg = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return undefined;
});
afterAll(() => pg?.stop());

/** One side of the comparison: the repositories and plain SQL on their database. */
interface Side {
  chats: ChatsRepo;
  visitors: VisitorsRepo;
  messages: MessagesRepo;
  exec(sql: string): Promise<void>;
  rows(sql: string): Promise<unknown[]>;
  /** The table with each chat's last message: `chats`, or PostgreSQL's `chat_activity`. */
  activity: string;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let databases = 0;
async function pgNodes(count: number): Promise<PgDb[]> {
  const url = pg!.createDatabase(`pgchats_${process.pid}_${++databases}`);
  const nodes: PgDb[] = [];
  for (let i = 0; i < count; i++) nodes.push(await openPgDb({ url }));
  cleanups.push(() => Promise.all(nodes.map((n) => n.close())).then(() => undefined));
  return nodes;
}

const pgSide = (db: PgDb): Side => ({
  chats: createPgChatsRepo(db),
  visitors: createPgVisitorsRepo(db),
  messages: createPgMessagesRepo(db),
  exec: async (sql) => void (await db.pool.query(sql)),
  rows: (sql) => db.all(sql),
  activity: 'chat_activity',
});

function sqliteSide(): Side {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pgchats-'));
  const db = openDb({ path: path.join(dir, 'db.sqlite'), sync: 'off' });
  cleanups.push(() => (db.close(), fs.rmSync(dir, { recursive: true, force: true })));
  const writes = createWriteBatcher(db);
  return {
    chats: createChatsRepo(db, writes),
    visitors: createVisitorsRepo(db, writes),
    messages: createMessagesRepo(db),
    exec: async (sql) => void db.exec(sql),
    rows: async (sql) => db.prepare(sql).all(),
    activity: 'chats',
  };
}

// Channel 1: Chat API, agents 1 and 2. Channel 2: widget with bot provider 1, agent 1. Department 1.
const seed = `
  INSERT INTO bot_providers (provider_id, name, endpoint, created_at) VALUES ('bot', 'Bot', 'http://bot.test/', 1);
  INSERT INTO channels (public_id, kind, name, random_string, signing_secret, created_at) VALUES ('c1', 'chat_api', 'Shop', 'r1', 's1', 1);
  INSERT INTO channels (public_id, kind, name, random_string, signing_secret, created_at, bot_provider_id, safe_domains_json)
    VALUES ('c2', 'widget', 'Site', 'r2', 's2', 1, 1, '["shop.test"]');
  INSERT INTO agents (name, email, password_hash, created_at) VALUES ('Ann', 'ann@shop.test', 'x', 1);
  INSERT INTO agents (name, email, password_hash, created_at) VALUES ('Bob', 'bob@shop.test', 'x', 1);
  INSERT INTO channel_agents (channel_id, agent_id) VALUES (1, 1), (1, 2), (2, 1);
  INSERT INTO departments (name, created_at) VALUES ('Sales', 1);
`;

const delivery = (kind: string, channelId: number, payload: unknown = { kind }): NewDelivery => ({
  kind,
  channelId,
  url: 'http://receiver.test/',
  payload,
  maxAttempts: 3,
});

const clientMessage = (key: string, text: string, extra: Partial<NewClientMessage> = {}): NewClientMessage => ({
  channelId: 1,
  client: { key, id: key, profile: {} },
  botProviderRowId: null,
  message: { type: 'text', text, media: {}, externalId: null },
  ...extra,
});

/** Times differ between runs; everything else must match exactly. */
const TIME_KEYS = new Set(['createdAt', 'closedAt', 'created_at', 'closed_at', 'updated_at', 'next_attempt_at']);
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, TIME_KEYS.has(k) && typeof v === 'number' ? 'time' : normalize(v)]));
}

/** A thrown error by its class; the two drivers' unique violations as one. */
const outcome = <T>(p: Promise<T>) =>
  p.catch((error: unknown) => {
    const code = (error as { code?: string }).code;
    return { threw: code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505' ? 'unique violation' : (error as Error).constructor.name };
  });

/** The same conversation on either store; answers everything the repositories said, and the rows left. */
async function conversation(s: Side) {
  await s.exec(seed);
  const log: unknown[] = [];
  const step = async (name: string, p: Promise<unknown>) => void log.push([name, await outcome(p)]);
  const forward: NewClientMessage['forward'] = ({ chat, message }) => delivery('bot_message', 1, { chat: chat.id, message: message.id });

  await step('first', s.chats.appendClientMessage(clientMessage('cust-1', 'Hello', { idempotencyKey: 'k1', forward })));
  await step('repeat', s.chats.appendClientMessage(clientMessage('cust-1', 'Hello', { idempotencyKey: 'k1', forward })));
  const named = { key: 'cust-1', id: 'cust-1', profile: { name: 'Carl', email: 'carl@x.test' } };
  await step('profile', s.chats.appendClientMessage({ ...clientMessage('cust-1', 'Again'), client: named }));
  await step('same profile', s.chats.updateClientProfile(1, named));
  await step('typing newcomer', s.chats.updateClientProfile(1, { key: 'cust-2', id: 2, profile: { phone: '+1' } }));
  await step(
    'agent',
    s.chats.appendAgentMessage({
      chatId: 1,
      agentId: 1,
      message: { type: 'text', text: 'Hi', media: {} },
      delivery: () => delivery('msg', 1),
    }),
  );
  await step(
    'not sent',
    s.chats.appendAgentMessage({
      chatId: 1,
      agentId: 2,
      message: { type: 'photo', text: null, media: { file: 'http://f' } },
      delivery: () => ({ notSent: 'no url' }),
    }),
  );
  await step(
    'bot',
    s.chats.appendAgentMessage({
      chatId: 1,
      agentId: null,
      author: 'bot',
      message: { type: 'text', text: 'b', media: {} },
      delivery: () => null,
    }),
  );
  await step('list 1', s.chats.listForAgent(1, 'open', 500, null));
  await step('list 2 closed', s.chats.listForAgent(2, 'closed', 500, null));
  await step('for agent 2', s.chats.findForAgent(1, 2));
  await step('crm', s.chats.setCrm(1, { custom: 'x' } as never));
  await step('rate', s.chats.setRate(1, 'positive'));
  await step('department', s.chats.setDepartment(1, 1));
  await step('no chat', s.chats.setDepartment(99, null));
  await step('find', s.chats.findById(1));
  await step('find none', s.chats.findById(99));
  // The chat a message answers with holds what the steps above changed (department, CRM data, rate, profile).
  const phoned = { key: 'cust-1', id: 'cust-1', profile: { phone: '+2' } };
  await step('into the changed chat', s.chats.appendClientMessage({ ...clientMessage('cust-1', 'Later'), client: phoned }));

  const visitor = await s.visitors.create(2, 'v_1', 'hash-1');
  log.push(['visitor', visitor]);
  await step('pending', s.visitors.setPendingDepartment(visitor.id, 1));
  await step('no visitor', s.visitors.setPendingDepartment(999, 1));
  const widget = { channelId: 2, client: { key: 'v_1', id: 'v_1', profile: {} }, botProviderRowId: 1 };
  const first = { type: 'text' as const, text: 'hey bot', media: {}, externalId: 'cm-1' };
  await step('widget', s.chats.appendClientMessage({ ...widget, message: first }));
  await step('visitor after', s.visitors.findById(visitor.id));
  await step('live', s.visitors.liveChat(visitor.id));
  await step('hand over not bot', s.chats.handOver(1, 'no'));
  await step('hand over', s.chats.handOver(2, 'The bot gave up'));
  await step('assign', s.chats.assign(2, 2, delivery('agent_joined', 2)));
  await step('assign again', s.chats.assign(2, 1, delivery('agent_joined', 2)));
  await step('by msg id', s.visitors.messageByClientMsgId(visitor.id, 'cm-1'));
  await step('by msg id none', s.visitors.messageByClientMsgId(visitor.id, 'cm-2'));
  await step('newest page', s.messages.pageByChat(2, 2, null, 'forClient'));
  await step('older page', s.messages.pageByChat(2, 1, 3, 'forAgents'));
  await step('block', s.chats.close(2, true, [delivery('chat_closed', 2)]));
  await step('close again', s.chats.close(2, false, [delivery('chat_closed', 2)]));
  await step('blocked', s.chats.appendClientMessage({ ...widget, message: first }));
  await step('unblock', s.chats.unblockClient(2));
  await step('new chat', s.chats.appendClientMessage({ ...widget, message: { ...first, externalId: 'cm-2' } }));
  await step('count', s.chats.countByClient(visitor.id));
  await step('latest', s.visitors.latestChatId(visitor.id));
  await step('latest none', s.visitors.latestChatId(999));
  await step('no live', s.visitors.liveChat(999));
  await step('close 1', s.chats.close(1, false, []));
  await step('list 2 closed after', s.chats.listForAgent(2, 'closed', 500, null));
  await step('by token', s.visitors.findByToken(2, 'hash-1'));
  await step('by token none', s.visitors.findByToken(1, 'hash-1'));
  const patch = {
    name: 'Vi',
    customData: [{ key: 'a', value: 'b' }],
    userVerified: true,
    utm: null,
    geoip: { country: 'FR' },
    email: undefined,
  };
  await step('update', s.visitors.update(visitor.id, patch as never));
  await step('update nothing', s.visitors.update(visitor.id, {}));
  await step('second visitor', s.visitors.create(2, 'v_2', 'hash-2'));
  await step('third visitor', s.visitors.create(2, 'v_4', 'hash-4'));
  // Last of the client inserts: a failed insert uses up an id in PostgreSQL, not in SQLite.
  await step('duplicate token', s.visitors.create(2, 'v_3', 'hash-2'));
  await step('forget none', s.chats.forgetIdempotencyKeys());
  await step('forget all', s.chats.forgetIdempotencyKeys(Date.now() + IDEMPOTENCY_WINDOW_MS + 1));

  log.push([
    'deliveries',
    await s.rows('SELECT kind, channel_id, chat_id, message_id, ordering_key, url, payload_json, state FROM deliveries ORDER BY id'),
  ]);
  log.push([
    'clients',
    await s.rows(
      'SELECT id, external_key, name, email, phone, visitor_number, blacklisted, pending_department_id FROM clients ORDER BY id',
    ),
  ]);
  log.push([
    'chats',
    await s.rows(
      `SELECT ch.id, ch.state, ch.assigned_agent_id, ch.agent_joined, ch.blacklisted, a.last_message_id, ch.department_id
       FROM chats ch JOIN ${s.activity} a ON a.id = ch.id ORDER BY ch.id`,
    ),
  ]);
  return normalize(log);
}

describe.skipIf(!pg)('PostgreSQL chats and visitors repositories', () => {
  it('answer a whole conversation exactly as the SQLite repositories do', async () => {
    const [db] = await pgNodes(1);
    const expected = await conversation(sqliteSide());
    expect(await conversation(pgSide(db!))).toEqual(expected);
  });

  describe('when two nodes write at once', () => {
    it('the first two messages of a new customer make one client and one live chat', async () => {
      const [a, b] = (await pgNodes(2)).map(pgSide);
      await a!.exec(seed);
      for (let i = 0; i < 25; i++) {
        const key = `race-${i}`;
        const results = await Promise.all([
          a!.chats.appendClientMessage(clientMessage(key, 'one')),
          b!.chats.appendClientMessage(clientMessage(key, 'two')),
        ]);
        const chats = results.map((r) => (r.replayed ? undefined : r.chat.id));
        expect(chats[0]).toBe(chats[1]);
        expect(results.filter((r) => !r.replayed && r.chatCreated)).toHaveLength(1);
      }
      expect(await a!.rows('SELECT COUNT(*)::int AS n FROM clients')).toEqual([{ n: 25 }]);
      expect(await a!.rows("SELECT COUNT(*)::int AS n FROM chats WHERE state != 'closed'")).toEqual([{ n: 25 }]);
      expect(await a!.rows('SELECT COUNT(*)::int AS n FROM messages')).toEqual([{ n: 50 }]);
    });

    it("crowds of new customers on both nodes are all opened by their nodes' batches, none left to a transaction of its own", async () => {
      const nodes = await pgNodes(2);
      await nodes[0]!.pool.query(seed);
      const batchers = nodes.map((db) => createClientMessageBatcher(db));
      for (let round = 0; round < 8; round++) {
        // Every message of a node is appended in one turn: after the first two, the rest go in one batch per node.
        const stored = await Promise.all(
          batchers.flatMap((batcher, node) =>
            Array.from({ length: 40 }, (_, i) => batcher.append(clientMessage(`crowd-${round}-${node}-${i}`, 'hello'))),
          ),
        );
        // A batch PostgreSQL broke off (two batches locking report rows in opposite orders deadlock) answers undefined.
        expect(stored.filter((s) => s === undefined)).toHaveLength(0);
        expect(stored.every((s) => s!.chatCreated && s!.message.text === 'hello')).toBe(true);
      }
      expect(await nodes[0]!.all('SELECT COUNT(*)::int AS n FROM chats')).toEqual([{ n: 8 * 80 }]);
    });

    it('two requests with one Idempotency-Key store the message once and give both the same answer', async () => {
      const [a, b] = (await pgNodes(2)).map(pgSide);
      await a!.exec(seed);
      for (let i = 0; i < 25; i++) {
        const input = clientMessage(`idem-${i % 3}`, `m${i}`, { idempotencyKey: `key-${i}`, forward: () => delivery('bot_message', 1) });
        const results = await Promise.all([a!.chats.appendClientMessage(input), b!.chats.appendClientMessage(input)]);
        const ids = results.map((r) => (r.replayed ? [r.chatId, r.messageId] : [r.chat.id, r.message.id]));
        expect(ids[0]).toEqual(ids[1]);
        expect(results.filter((r) => r.replayed)).toHaveLength(1);
      }
      expect(await a!.rows('SELECT COUNT(*)::int AS n FROM messages')).toEqual([{ n: 25 }]);
      expect(await a!.rows('SELECT COUNT(*)::int AS n FROM deliveries')).toEqual([{ n: 25 }]);
    });

    it('200 visitors created on two nodes get the numbers 1 to 200', async () => {
      const [a, b] = (await pgNodes(2)).map(pgSide);
      await a!.exec(seed);
      const created = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a! : b!).visitors.create(2, `v_${i}`, `hash-${i}`)));
      const numbers = created.map((v) => v.visitorNumber!).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    });

    it('agent messages in one chat leave the newest as its last message, with deliveries in message order', async () => {
      const [a, b] = (await pgNodes(2)).map(pgSide);
      await a!.exec(seed);
      const { chat } = (await a!.chats.appendClientMessage(clientMessage('c', 'hi'))) as { chat: { id: number } };
      const sent = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? a! : b!).chats.appendAgentMessage({
            chatId: chat.id,
            agentId: 1 + (i % 2),
            message: { type: 'text', text: `a${i}`, media: {} },
            delivery: () => delivery('msg', 1),
          }),
        ),
      );
      const newest = Math.max(...sent.map((s) => s.message.id));
      expect((await a!.chats.findById(chat.id))!.lastMessage!.id).toBe(newest);
      const order = (await a!.rows('SELECT message_id FROM deliveries ORDER BY id')) as { message_id: number }[];
      const ids = order.map((r) => r.message_id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(new Set(sent.map((s) => s.chat.assignedAgentId)).size).toBe(1);
    });

    it('a block racing the customer next message either refuses it or stores it in the chat it closes', async () => {
      const [a, b] = (await pgNodes(2)).map(pgSide);
      await a!.exec(seed);
      for (let i = 0; i < 15; i++) {
        const key = `blocked-${i}`;
        const { chat } = (await a!.chats.appendClientMessage(clientMessage(key, 'hi'))) as { chat: { id: number } };
        const [closed, next] = await Promise.all([
          a!.chats.close(chat.id, true),
          outcome(b!.chats.appendClientMessage(clientMessage(key, 'again'))),
        ]);
        expect(closed).toBe(true);
        if ('threw' in next) expect(next.threw).toBe('ClientBlocked');
        else expect(next.replayed === false && next.chat.id).toBe(chat.id);
      }
      expect(await a!.rows("SELECT COUNT(*)::int AS n FROM chats WHERE state != 'closed'")).toEqual([{ n: 0 }]);
    });
  });
});
