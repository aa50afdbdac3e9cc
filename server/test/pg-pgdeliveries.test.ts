import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { createBotEventsRepo } from '../src/store/sqlite/bot-events-repo.ts';
import type { BotEventsRepo } from '../src/store/bot-events.ts';
import { createBotProvidersRepo } from '../src/store/sqlite/bot-providers-repo.ts';
import type { BotProvidersRepo } from '../src/store/bot-providers.ts';
import { openDb, type Db } from '../src/store/sqlite/db.ts';
import { createDeliveriesRepo } from '../src/store/sqlite/deliveries-repo.ts';
import { PER_CHANNEL_IN_FLIGHT, type AttemptLog, type AttemptOutcome, type DeliveriesRepo } from '../src/store/deliveries.ts';
import { createPgBotEventsRepo } from '../src/store/postgres/bot-events-repo.ts';
import { createPgBotProvidersRepo } from '../src/store/postgres/bot-providers-repo.ts';
import { createPgDeliveriesRepo } from '../src/store/postgres/deliveries-repo.ts';
import { openPgDb, type PgDb } from '../src/store/postgres/pg-db.ts';
import type { DeliveryRecord, NewDelivery } from '../src/store/records.ts';
import { createWriteBatcher } from '../src/store/sqlite/write-batcher.ts';
import { recordPgStatements } from './support/pg-statements.ts';

const server = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return undefined;
});
afterAll(() => server?.stop());
const pgStatements = recordPgStatements((_, sql) => sql);

// Rows the repositories refer to, in SQL both engines take as written.
const seed = [
  `INSERT INTO channels (id, public_id, kind, name, random_string, signing_secret, created_at) VALUES
     (1, 'c1', 'chat_api', 'one', 'r', 's', 0), (2, 'c2', 'chat_api', 'two', 'r', 's', 0),
     (3, 'c3', 'chat_api', 'three', 'r', 's', 0), (4, 'c4', 'chat_api', 'four', 'r', 's', 0)`,
  `INSERT INTO clients (id, channel_id, external_key, external_id_json, created_at, updated_at) VALUES (1, 1, 'k', '"k"', 0, 0)`,
  `INSERT INTO chats (id, channel_id, client_id, state, created_at) VALUES (1, 1, 1, 'open', 0), (2, 1, 1, 'closed', 0)`,
  `INSERT INTO messages (id, chat_id, author, type, delivery, created_at) VALUES
     (1, 1, 'agent', 'text', 'pending', 0), (2, 1, 'agent', 'text', 'pending', 0)`,
];

const T = 1_700_000_000_000;
let databases = 0;
const pools: PgDb[] = [];
let sqliteDir: string | undefined;
let sqlite: Db | undefined;

/** A fresh seeded database and `nodes` pools on it: each pool is one node of the cluster. */
async function pgNodes(nodes: number): Promise<PgDb[]> {
  const url = server!.createDatabase(`pgdeliveries_${++databases}`);
  const opened: PgDb[] = [];
  for (let i = 0; i < nodes; i++) opened.push(await openPgDb({ url, poolSize: 6 }));
  pools.push(...opened);
  for (const statement of seed) await opened[0]!.run(statement);
  return opened;
}

function sqliteDb(): Db {
  sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pgdeliveries-'));
  sqlite = openDb({ path: path.join(sqliteDir, 'db.sqlite'), sync: 'off' });
  for (const statement of seed) sqlite.exec(statement);
  return sqlite;
}

// Only the clock is fake: every row is written at T, so both engines answer the same times.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T);
});

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(pools.splice(0).map((p) => p.close()));
  sqlite?.close();
  sqlite = undefined;
  if (sqliteDir) fs.rmSync(sqliteDir, { recursive: true, force: true });
});

const delivery = (over: Partial<NewDelivery & { chatId: number | null; messageId: number | null }>) => ({
  kind: 'webhook',
  channelId: 1,
  chatId: null,
  messageId: null,
  url: 'http://receiver.test/hook',
  payload: { n: 1 },
  maxAttempts: 3,
  ...over,
});

/** One attempt of a claimed row, recorded as the outbox records a run of one row. */
const recordOne = async (r: DeliveriesRepo, sent: DeliveryRecord, workerId: string, outcome: AttemptOutcome, log: AttemptLog = {}) =>
  (await r.recordAttempts(workerId, [{ sent, outcome, log }]))[0];

/** One story through every method; both engines must tell it the same way. */
async function deliveryStory(repo: DeliveriesRepo, messages: () => Promise<unknown>) {
  const out: unknown[] = [];
  // Each row as last claimed: an attempt is recorded against the row the worker sent.
  const claimedRows = new Map<number, DeliveryRecord>();
  const r: DeliveriesRepo = {
    ...repo,
    async claimDue(...args) {
      const rows = await repo.claimDue(...args);
      for (const row of rows) claimedRows.set(row.id, row);
      return rows;
    },
  };
  const recordAttempt = (id: number, workerId: string, outcome: AttemptOutcome, log?: AttemptLog) =>
    recordOne(repo, claimedRows.get(id)!, workerId, outcome, log);
  const a = await r.enqueue(delivery({ chatId: 1, messageId: 1, maxAttempts: 2, eventId: 'e1' }));
  const b = await r.enqueue(delivery({ chatId: 1, messageId: 2, eventId: 'e2', payload: { n: 2 } }));
  const c = await r.enqueue(delivery({ kind: 'event', channelId: 2, eventId: 'e3' }));
  const d = await r.enqueue(delivery({ orderingKey: 'x', maxAttempts: 1, eventId: 'e4' }));
  out.push(await r.nextDueAt());
  out.push(await r.claimDue('w1', T, 1000, 10));
  out.push(await r.claimDue('w2', T, 1000, 10));
  out.push(await r.nextDueAt());
  out.push(await recordAttempt(a, 'w2', { result: 'delivered', status: 200 }));
  out.push(
    await recordAttempt(
      a,
      'w1',
      { result: 'retry', status: 503, error: 'busy', retryAt: T + 5000 },
      { durationMs: 12, answer: 'x'.repeat(3000) },
    ),
  );
  out.push(await recordAttempt(c, 'w1', { result: 'delivered', status: 200 }, { durationMs: 3, answer: 'ok' }));
  out.push(await recordAttempt(d, 'w1', { result: 'failed', status: 400, error: 'bad' }));
  out.push(await r.nextDueAt());
  out.push(await r.claimDue('w1', T + 1000, 1000, 10));
  out.push(await r.claimDue('w1', T + 5000, 1000, 10));
  out.push(await recordAttempt(a, 'w1', { result: 'retry', status: null, error: 'timeout', retryAt: T + 9000 }));
  out.push(await r.claimDue('w1', T + 6000, 1000, 10));
  out.push(await recordAttempt(b, 'w1', { result: 'delivered', status: 204 }));
  out.push(await r.nextDueAt(), await messages());
  out.push(await r.requeueFailedMessage(2), await r.requeueFailedMessage(1), await r.requeueFailedMessage(1), await messages());
  out.push(await r.replayable({ channelId: 1, since: 0, until: T + 10, limit: 10 }));
  out.push(await r.replay([d, a, d, 999]));
  out.push(await r.replaysOf(d), await r.replaysOf(a));
  out.push(await r.replayable({ channelId: 1, since: 0, until: T + 10, limit: 10 }));
  out.push(await r.replayable({ channelId: 1, kind: 'event', since: 0, until: T + 10, limit: 10 }));
  out.push(await r.findById(a), await r.findById(12345));
  out.push(await r.listByChat(1), await r.listByChat(2));
  out.push(await r.listByChannel({ channelId: 1, limit: 10 }));
  out.push(await r.listByChannel({ channelId: 1, kind: 'webhook', state: 'failed', limit: 10 }));
  out.push(await r.listByChannel({ channelId: 1, before: b, limit: 1 }));
  out.push(await r.listByChannel({ channelId: 1, since: T + 1, limit: 10 }));
  out.push(await r.attempts(a), await r.attempts(999));
  // A held row (due later) and one behind it on its ordering key: released early with a changed payload.
  const held = await r.enqueue(delivery({ chatId: 2, eventId: 'e5', dueAt: T + 60_000, payload: { event_name: 'held', rate: null } }));
  await r.enqueue(delivery({ chatId: 2, eventId: 'e6', payload: { event_name: 'behind' } }));
  out.push(await r.claimDue('w3', T + 7000, 1000, 10));
  const rate = (p: unknown) => ((p as { event_name?: string }).event_name === 'held' ? { ...(p as object), rate: 'positive' } : null);
  out.push(await r.releaseHeld(2, 'webhook', () => null, T + 7000), await r.releaseHeld(2, 'event', rate, T + 7000));
  out.push(await r.releaseHeld(2, 'webhook', rate, T + 7000), await r.releaseHeld(2, 'webhook', rate, T + 7001));
  out.push(await r.findById(held), await r.nextDueAt(), await r.claimDue('w3', T + 7001, 1000, 10));
  return out;
}

async function botStory(providers: BotProvidersRepo, events: BotEventsRepo) {
  const out: unknown[] = [];
  const p = await providers.create({ providerId: 'acme', name: 'Acme', endpoint: 'http://bot.test', auth: null });
  const q = await providers.create({
    providerId: 'Acme',
    name: 'Acme 2',
    endpoint: 'http://bot2.test',
    auth: { token_url: 'http://bot2.test/token', client_id: 'id', client_secret: 'secret' },
  });
  out.push(p, q, await providers.findById(q.id), await providers.findById(99), await providers.findByProviderId('Acme'));
  out.push(await providers.findByProviderId('ACME'), await providers.list());
  await providers.rememberToken(p.id, 'h1', T + 1000);
  await providers.rememberToken(p.id, 'h1', T + 2000);
  await providers.rememberToken(p.id, 'old', T - 1);
  out.push(await providers.holdsToken(p.id, 'h1'), await providers.holdsToken(p.id, 'old'), await providers.holdsToken(q.id, 'h1'));
  await events.log({ providerId: p.id, chatId: 1, event: 'message', body: { text: 'hi' }, status: 200, error: null });
  await events.log({ providerId: q.id, chatId: 1, event: 'close', body: undefined, status: 400, error: 'no such chat' });
  await events.log({ providerId: p.id, chatId: null, event: 'ping', body: [1], status: 200, error: null });
  out.push(await events.listByChat(1), await events.listByChat(2));
  return out;
}

describe.skipIf(!server)('PostgreSQL deliveries, bot providers and bot events', () => {
  it('answer as the SQLite repositories do, step by step', async () => {
    const db = sqliteDb();
    const [pg] = await pgNodes(1);
    const readMessages = 'SELECT id, delivery, error FROM messages ORDER BY id';
    const expected = await deliveryStory(createDeliveriesRepo(db, createWriteBatcher(db)), async () => db.prepare(readMessages).all());
    const actual = await deliveryStory(createPgDeliveriesRepo(pg!), () => pg!.all(readMessages));
    expect(actual).toEqual(expected);
    expect(JSON.stringify(actual)).toContain('"e4"');
    // The held row is released once (not by a change that declines it, nor for another kind) and is then claimed.
    expect(actual.slice(-7, -3)).toEqual([false, false, true, false]);
    expect(actual.at(-1)).toMatchObject([{ eventId: 'e5', payload: { event_name: 'held', rate: 'positive' }, nextAttemptAt: T + 7000 }]);
  });

  it("find each key's head as SQLite does, whether a claim walks the due rows or groups the pending rows by key", async () => {
    /** Backlogs behind few heads (the claim after groups by key), then many keys of one row (the claim after walks). */
    async function heads(r: DeliveriesRepo) {
      const out: unknown[] = [];
      const claim = async (workerId: string, now: number, limit: number) =>
        (await r.claimDue(workerId, now, 1000, limit)).map((d) => `${d.orderingKey}:${d.eventId}`);
      for (const key of ['a', 'b', 'c'])
        for (let n = 1; n <= 5; n++) await r.enqueue(delivery({ orderingKey: key, eventId: `${key}${n}` }));
      out.push(await claim('w1', T, 1), await claim('w2', T, 1), await claim('w3', T, 5), await r.nextDueAt());
      for (let k = 0; k < 12; k++) await r.enqueue(delivery({ channelId: 2 + (k % 3), orderingKey: `one-${k}`, eventId: `one-${k}` }));
      out.push(await claim('w4', T + 1, 2), await claim('w5', T + 1, 2), await claim('w6', T + 1, 50));
      // the leases of w1-w3 end: their heads are due again, the rows behind them still wait
      out.push(await r.nextDueAt(), await claim('w7', T + 1001, 50));
      return out;
    }
    const db = sqliteDb();
    const [pg] = await pgNodes(1);
    const expected = await heads(createDeliveriesRepo(db, createWriteBatcher(db)));
    pgStatements.length = 0;
    const actual = await heads(createPgDeliveriesRepo(pg!));
    expect(actual).toEqual(expected);
    // a key's rows behind its leased head wait; once the lease ends, the same head is claimed again
    expect(expected.at(-1)).toEqual(['a:a1', 'b:b1', 'c:c1']);
    // both ways ran
    expect(pgStatements.some((sql) => /heads AS MATERIALIZED[\s\S]*FOR UPDATE OF d SKIP LOCKED/.test(sql))).toBe(true);
    expect(pgStatements.some((sql) => /d\.id = \(SELECT MIN\(e\.id\)/.test(sql))).toBe(true);
  });

  it('record attempts that arrive together (one statement on PostgreSQL) as the SQLite repositories do one by one', async () => {
    /** Five keys, two rows each; four heads claimed by w1, one by w2. Then every record at once. */
    async function together(r: DeliveriesRepo, messages: () => Promise<unknown>) {
      const ids: number[] = [];
      for (const key of ['a', 'b', 'c', 'd', 'e'])
        for (const n of [1, 2]) {
          const message = key === 'a' ? { chatId: 1, messageId: n } : {};
          ids.push(await r.enqueue(delivery({ orderingKey: key, eventId: `${key}${n}`, maxAttempts: 2, ...message })));
        }
      const claimed = new Map([...(await r.claimDue('w1', T, 1000, 4)), ...(await r.claimDue('w2', T, 1000, 4))].map((d) => [d.id, d]));
      const [a1, , b1, , c1, , d1, , e1] = ids.map((id) => claimed.get(id)!);
      const out: unknown[] = await Promise.all([
        // A receiver's answer and error text may carry NUL, which PostgreSQL's text refuses: the log keeps them clean.
        recordOne(r, a1!, 'w1', { result: 'delivered', status: 200 }, { durationMs: 5, answer: 'o\u0000k' }),
        recordOne(r, b1!, 'w1', { result: 'retry', status: 503, error: 'busy', retryAt: T + 500 }),
        recordOne(r, c1!, 'w1', { result: 'failed', status: 400, error: 'The owner answered: ba\u0000d' }),
        recordOne(r, d1!, 'w1', { result: 'delivered', status: 200 }),
        // e1 is w2's: w1's record of it is refused, w2's goes through.
        recordOne(r, e1!, 'w1', { result: 'delivered', status: 200 }),
        recordOne(r, e1!, 'w2', { result: 'delivered', status: 200 }),
      ]);
      out.push(await messages(), await r.attempts(a1!.id), await r.attempts(b1!.id), await r.nextDueAt());
      out.push((await r.claimDue('w3', T + 2000, 1000, 10)).map((d) => d.eventId));
      return out;
    }
    const db = sqliteDb();
    const [pg] = await pgNodes(1);
    const readMessages = 'SELECT id, delivery, error FROM messages ORDER BY id';
    const expected = await together(createDeliveriesRepo(db, createWriteBatcher(db)), async () => db.prepare(readMessages).all());
    const actual = await together(createPgDeliveriesRepo(pg!), () => pg!.all(readMessages));
    expect(actual).toEqual(expected);
    expect(actual.slice(0, 6).map((f) => (f as { delivery: { state: string } } | undefined)?.delivery.state ?? null)).toEqual([
      'delivered',
      'pending',
      'failed',
      'delivered',
      null,
      'delivered',
    ]);
    expect(actual[2]).toMatchObject({ delivery: { lastError: 'The owner answered: bad' } });
    expect(actual[7]).toMatchObject([{ status: 200, answer: 'ok' }]);
    // The rows behind the finished heads (due since T) follow; b1 is due again at T + 500, after them.
    expect(actual.at(-1)).toEqual(['a2', 'c2', 'd2', 'e2', 'b1']);
  });

  it('claim, top up, record and give back runs of one key as the SQLite repositories do', async () => {
    /** Key a: five rows, the fourth held until later; key b on another channel: two rows, then one of channel 1. */
    async function runs(r: DeliveriesRepo, messages: () => Promise<unknown>) {
      const a: number[] = [];
      for (const n of [1, 2, 3, 4, 5]) {
        const message = n <= 2 ? { chatId: 1, messageId: n } : {};
        a.push(await r.enqueue(delivery({ orderingKey: 'a', eventId: `a${n}`, dueAt: n === 4 ? T + 5000 : T, ...message })));
      }
      const b: number[] = [];
      for (const [n, channelId] of [
        [1, 2],
        [2, 2],
        [3, 1],
      ] as const)
        b.push(await r.enqueue(delivery({ orderingKey: 'b', channelId, eventId: `b${n}` })));
      const ids = (rows: DeliveryRecord[]) => rows.map((d) => d.eventId);
      const out: unknown[] = [];
      // a1..a3 (a4 is not due), b1 and b2 (b3 is another channel's): both keys count once against their caps.
      const claimed = await r.claimDue('w1', T, 10_000, 10, 4);
      out.push(ids(claimed), await r.claimDue('w2', T, 1000, 10, 4));
      const byId = new Map(claimed.map((d) => [d.id, d]));
      // a1 and a2 recorded together, in order; a2's message is settled with it.
      const recorded = await r.recordAttempts('w1', [
        { sent: byId.get(a[0]!)!, outcome: { result: 'delivered', status: 200 }, log: { durationMs: 2, answer: 'ok' } },
        { sent: byId.get(a[1]!)!, outcome: { result: 'delivered', status: 200 }, log: {} },
      ]);
      out.push(recorded, await messages());
      // Nothing after a3 may follow yet (a4 is held); another worker gets nothing of key a.
      out.push(await r.claimAfter('w1', { orderingKey: 'a', channelId: 1, afterId: a[2]! }, T + 10, 1000, 4));
      out.push(await r.claimAfter('w2', { orderingKey: 'a', channelId: 1, afterId: a[2]! }, T + 5000, 1000, 4));
      // Once a4 is due, w1 tops its run up with a4 and a5.
      out.push(ids(await r.claimAfter('w1', { orderingKey: 'a', channelId: 1, afterId: a[2]! }, T + 5000, 1000, 4)));
      // a3 is retried: the rest of the run is given back untouched, and a3 blocks them until its retry is due.
      out.push(
        await r.recordAttempts('w1', [
          { sent: byId.get(a[2]!)!, outcome: { result: 'retry', status: 503, error: 'busy', retryAt: T + 8000 }, log: {} },
        ]),
      );
      await r.release('w1', [a[3]!, a[4]!]);
      await r.release('w2', [b[0]!]); // not w2's: left alone
      out.push(await r.nextDueAt(), ids(await r.claimDue('w3', T + 7000, 1000, 10, 4)));
      out.push(ids(await r.claimDue('w3', T + 9000, 10_000, 10, 4)), ids(await r.claimDue('w3', T + 10_001, 1000, 10, 4)));
      return out;
    }
    const db = sqliteDb();
    const [pg] = await pgNodes(1);
    const readMessages = 'SELECT id, delivery, error FROM messages ORDER BY id';
    const expected = await runs(createDeliveriesRepo(db, createWriteBatcher(db)), async () => db.prepare(readMessages).all());
    const actual = await runs(createPgDeliveriesRepo(pg!), () => pg!.all(readMessages));
    expect(actual).toEqual(expected);
    expect(actual[0]).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
    expect(actual[1]).toEqual([]);
    expect(actual[2]).toMatchObject([
      { delivery: { eventId: 'a1', state: 'delivered', attempts: 1 }, message: { id: 1, delivery: 'delivered' } },
      { delivery: { eventId: 'a2', state: 'delivered', attempts: 1 }, message: { id: 2, delivery: 'delivered' } },
    ]);
    expect(actual.slice(4, 7)).toEqual([[], [], ['a4', 'a5']]);
    expect(actual[7]).toMatchObject([{ delivery: { eventId: 'a3', state: 'pending', nextAttemptAt: T + 8000 } }]);
    // a waits for a3's retry; b for the end of w1's lease on its run (w1 died, say), then goes as one run again.
    expect(actual.slice(8)).toEqual([T + 8000, [], ['a3', 'a4', 'a5'], ['b1', 'b2']]);
  });

  it('keep bot providers, their tokens and bot events as the SQLite repositories do', async () => {
    const db = sqliteDb();
    const [pg] = await pgNodes(1);
    const expected = await botStory(createBotProvidersRepo(db), createBotEventsRepo(db, createWriteBatcher(db)));
    const actual = await botStory(createPgBotProvidersRepo(pg!), createPgBotEventsRepo(pg!));
    expect(actual).toEqual(expected);
  });
});

describe.skipIf(!server)('PostgreSQL outbox shared by two nodes', () => {
  const keyOf = (i: number) => `key:${i % 20}`;
  /** 500 rows over 20 ordering keys spread over 4 channels (5 keys each, under the in-flight cap). */
  async function fill(repo: DeliveriesRepo): Promise<Map<string, number[]>> {
    const byKey = new Map<string, number[]>();
    for (let i = 0; i < 500; i++) {
      const id = await repo.enqueue(delivery({ channelId: ((i % 20) % 4) + 1, orderingKey: keyOf(i), maxAttempts: 10 }));
      byKey.set(keyOf(i), [...(byKey.get(keyOf(i)) ?? []), id]);
    }
    return byKey;
  }

  it('never claim one row twice nor a row whose ordering key has an older pending row', async () => {
    const [a, b] = (await pgNodes(2)).map(createPgDeliveriesRepo);
    const byKey = await fill(a!);
    const heads = [...byKey.values()].map((ids) => ids[0]!).sort((x, y) => x - y);
    const now = Date.now() + 1000;
    const racing = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a! : b!).claimDue(`w${i}`, now, 60_000, 5)));
    const rest = await a!.claimDue('late', now, 60_000, 50);
    const claimed = [...racing.flat(), ...rest].map((d) => d.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort((x, y) => x - y)).toEqual(heads);
  }, 60_000);

  it('keep the order of each key while two nodes with two workers each claim and record until the outbox is empty', async () => {
    const repos = (await pgNodes(2)).map(createPgDeliveriesRepo);
    const byKey = await fill(repos[0]!);
    const next = new Map<string, number>();
    const holder = new Map<string, number>();
    const sent = new Map<string, number[]>();
    let delivered = 0;
    let retried = 0;
    const work = async (repo: DeliveriesRepo, workerId: string) => {
      while (delivered < 500) {
        const claimed = await repo.claimDue(workerId, Date.now(), 60_000, 3);
        if (claimed.length === 0) await new Promise((r) => setTimeout(r, 2));
        for (const d of claimed) {
          // Claimed only while no other worker holds its key, and only as the oldest row of its key not yet sent.
          expect(holder.get(d.orderingKey)).toBeUndefined();
          expect(d.id).toBe(byKey.get(d.orderingKey)![next.get(d.orderingKey) ?? 0]);
          holder.set(d.orderingKey, d.id);
        }
        await Promise.all(
          claimed.map(async (d) => {
            const retry = d.id % 7 === 0 && d.attempts === 0;
            const finished = await recordOne(
              repo,
              d,
              workerId,
              retry ? { result: 'retry', status: 503, error: 'busy', retryAt: Date.now() } : { result: 'delivered', status: 200 },
            );
            expect(finished?.delivery.state).toBe(retry ? 'pending' : 'delivered');
            holder.delete(d.orderingKey);
            if (retry) return void retried++;
            delivered++;
            next.set(d.orderingKey, (next.get(d.orderingKey) ?? 0) + 1);
            sent.set(d.orderingKey, [...(sent.get(d.orderingKey) ?? []), d.id]);
          }),
        );
      }
    };
    vi.useRealTimers();
    await Promise.all(repos.flatMap((repo, node) => [work(repo, `n${node}a`), work(repo, `n${node}b`)]));
    expect(delivered).toBe(500);
    expect(retried).toBe([...byKey.values()].flat().filter((id) => id % 7 === 0).length);
    expect(Object.fromEntries(sent)).toEqual(Object.fromEntries(byKey));
    expect(await repos[1]!.nextDueAt()).toBeNull();
  }, 120_000);

  it('give a row whose lease ran out to the other node and refuse the first node its late attempt', async () => {
    const [a, b] = (await pgNodes(2)).map(createPgDeliveriesRepo);
    const first = await a!.enqueue(delivery({ orderingKey: 'k' }));
    const second = await a!.enqueue(delivery({ orderingKey: 'k' }));
    const claimedByA = await a!.claimDue('node-a', T, 50, 10);
    expect(claimedByA.map((d) => d.id)).toEqual([first]);
    expect(await b!.claimDue('node-b', T + 10, 60_000, 10)).toEqual([]);
    expect(await b!.nextDueAt()).toBe(T + 50);
    const claimedByB = await b!.claimDue('node-b', T + 100, 60_000, 10);
    expect(claimedByB.map((d) => d.id)).toEqual([first]);
    expect(await recordOne(a!, claimedByA[0]!, 'node-a', { result: 'delivered', status: 200 })).toBeUndefined();
    const finished = await recordOne(b!, claimedByB[0]!, 'node-b', { result: 'delivered', status: 200 });
    expect(finished?.delivery).toMatchObject({ id: first, state: 'delivered', attempts: 1 });
    expect(await a!.attempts(first)).toHaveLength(1);
    expect((await a!.claimDue('node-a', T + 200, 50, 10)).map((d) => d.id)).toEqual([second]);
  });

  it('hold the per-channel in-flight cap across nodes claiming at once', async () => {
    const [a, b] = (await pgNodes(2)).map(createPgDeliveriesRepo);
    // Eight claims of a quarter of the cap each ask for twice the cap; each looks at four times its limit in
    // rows, and there are enough rows that none of them finds every row locked by the others.
    const limit = PER_CHANNEL_IN_FLIGHT / 4;
    // The other channel's row first: a claim looks at the oldest due rows only (four times its limit).
    await a!.enqueue(delivery({ channelId: 2, orderingKey: 'other' }));
    for (let i = 0; i < 8 * limit * 4 + 8; i++) await a!.enqueue(delivery({ orderingKey: `k${i}` }));
    // Small claims lock disjoint rows, so each of them alone would stay under the cap.
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a! : b!).claimDue(`w${i}`, T, 60_000, limit)));
    const claimed = claims.flat();
    expect(new Set(claimed.map((d) => d.id)).size).toBe(claimed.length);
    expect(claimed.filter((d) => d.channelId === 1)).toHaveLength(PER_CHANNEL_IN_FLIGHT);
    expect((await a!.claimDue('late', T + 1, 60_000, PER_CHANNEL_IN_FLIGHT)).map((d) => d.channelId)).toEqual(
      claimed.some((d) => d.channelId === 2) ? [] : [2],
    );
  });

  it('send a failed message again once when two nodes resend or replay it at once', async () => {
    const [a, b] = (await pgNodes(2)).map(createPgDeliveriesRepo);
    const fail = async (id: number) => {
      const claimed = (await a!.claimDue('w', T, 1000, 10)).find((d) => d.id === id)!;
      await recordOne(a!, claimed, 'w', { result: 'failed', status: 400, error: 'bad' });
    };
    const first = await a!.enqueue(delivery({ chatId: 1, messageId: 1 }));
    await fail(first);
    expect((await Promise.all([a!.requeueFailedMessage(1), b!.requeueFailedMessage(1), b!.requeueFailedMessage(1)])).sort()).toEqual([
      false,
      false,
      true,
    ]);
    const resent = (await a!.listByChat(1)).at(-1)!;
    expect(resent).toMatchObject({ state: 'pending', eventId: (await a!.findById(first))!.eventId });
    await fail(resent.id);
    const replays = await Promise.all([a!.replay([resent.id, first]), b!.replay([first, resent.id]), b!.replay([resent.id])]);
    expect(replays.flat().map((d: DeliveryRecord) => d.replayOf)).toEqual([resent.id]);
    expect(await a!.listByChat(1)).toHaveLength(3);
  });
});
