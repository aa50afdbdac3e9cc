import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { createCallsRepo } from '../src/store/sqlite/calls-repo.ts';
import { CallInProgress, type CallRecord, type CallsRepo, type NewCall } from '../src/store/calls.ts';
import { openDb, type Db } from '../src/store/sqlite/db.ts';
import { createOfflineMessagesRepo } from '../src/store/sqlite/offline-messages-repo.ts';
import type { OfflineMessagesRepo } from '../src/store/offline-messages.ts';
import { createPgCallsRepo } from '../src/store/postgres/calls-repo.ts';
import { createPgOfflineMessagesRepo } from '../src/store/postgres/offline-messages-repo.ts';
import { openPgDb, type PgDb } from '../src/store/postgres/pg-db.ts';
import type { NewDelivery } from '../src/store/records.ts';
import { createWriteBatcher } from '../src/store/sqlite/write-batcher.ts';

const server = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return null;
});

interface Side {
  calls: CallsRepo;
  offline: OfflineMessagesRepo;
  /** Every row of a query, as plain objects. */
  rows(sql: string): Promise<Record<string, unknown>[]>;
  exec(sql: string): Promise<void>;
}

// Channel 1 has callbacks with a balance of 100 minutes; channel 2 none; channel 3 is deleted. Agent 1 serves 1 and 3.
const seed = [
  `INSERT INTO agents (name, email, password_hash, created_at) VALUES ('Carla', 'carla@shop.test', 'x', 1), ('Dan', 'dan@shop.test', 'x', 1)`,
  `INSERT INTO channels (public_id, kind, name, random_string, signing_secret, created_at, callback_json) VALUES
     ('w1', 'widget', 'Shop', 'r', 's', 1, '{"enabled":true,"time_zone":"Europe/Oslo","schedule":{},"balance":100}'),
     ('w2', 'widget', 'Plain', 'r', 's', 1, NULL),
     ('w3', 'widget', 'Gone', 'r', 's', 1, '{"balance":5}')`,
  `UPDATE channels SET deleted_at = 2 WHERE public_id = 'w3'`,
  `INSERT INTO channel_agents (channel_id, agent_id) VALUES (1, 1), (3, 1), (2, 2)`,
  `INSERT INTO clients (channel_id, external_key, external_id_json, name, visitor_number, created_at, updated_at) VALUES
     (1, 'v1', '"v1"', 'Ann', 1, 1, 1), (1, 'v2', '"v2"', NULL, 2, 1, 1), (2, 'v3', '"v3"', 'Bo', 3, 1, 1), (3, 'v4', '"v4"', NULL, 4, 1, 1)`,
];

const webhook =
  (channelId: number) =>
  (id: number): NewDelivery => ({
    kind: 'webhook',
    channelId,
    url: 'http://127.0.0.1:1/hooks',
    payload: { event_name: 'call_event', call: id },
    maxAttempts: 3,
    eventId: `evt_call_${id}`,
    orderingKey: `webhook-call:${id}`,
  });
/** An offline message's webhook: its id goes only in the payload (PostgreSQL writes it there in the insert). */
const offlineWebhook =
  (channelId: number) =>
  (offlineMessageId: string): NewDelivery => ({
    kind: 'webhook',
    channelId,
    url: 'http://127.0.0.1:1/hooks',
    payload: { event_name: 'offline_message', offline_message_id: offlineMessageId, message: 'offline_message_id' },
    maxAttempts: 3,
    eventId: 'evt_offline',
    orderingKey: `webhook-offline:${channelId}`,
  });
const call = (clientId: number | null, channelId = 1): NewCall => ({
  channelId,
  chatId: null,
  clientId,
  type: 'callback',
  phone: '+4712345678',
});
/**
 * A record without the times the repository takes from the clock, nor its id: an insert refused by the unique
 * index still uses up an identity value in PostgreSQL, so later ids are one ahead of SQLite's.
 */
const timeless = (c: CallRecord | undefined) => c && { ...c, id: 0, createdAt: 0, updatedAt: 0 };
const balanceOf = async (side: Side, channelId = 1) => {
  const [row] = await side.rows(`SELECT callback_json FROM channels WHERE id = ${channelId}`);
  return row!.callback_json === null ? null : (JSON.parse(row!.callback_json as string) as { balance?: number | null }).balance;
};
const deliveries = (side: Side) =>
  side.rows('SELECT kind, channel_id, chat_id, ordering_key, event_id, url, payload_json, max_attempts, state FROM deliveries ORDER BY id');

describe.skipIf(!server)('calls and offline messages on PostgreSQL', () => {
  let dir: string;
  let sqliteDb: Db;
  let url: string;
  let nodeA: PgDb;
  let nodeB: PgDb;
  let sqlite: Side;
  let pg: Side;
  let pgB: CallsRepo;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pgcalls-'));
    sqliteDb = openDb({ path: path.join(dir, 'svc.sqlite'), sync: 'off' });
    const writes = createWriteBatcher(sqliteDb);
    sqlite = {
      calls: createCallsRepo(sqliteDb, writes),
      offline: createOfflineMessagesRepo(sqliteDb, writes),
      rows: async (sql) => sqliteDb.prepare(sql).all() as Record<string, unknown>[],
      exec: async (sql) => void sqliteDb.exec(sql),
    };
    url = server!.createDatabase('pgcalls');
    nodeA = await openPgDb({ url });
    nodeB = await openPgDb({ url });
    pg = {
      calls: createPgCallsRepo(nodeA),
      offline: createPgOfflineMessagesRepo(nodeA),
      rows: (sql) => nodeA.all(sql),
      exec: async (sql) => void (await nodeA.run(sql)),
    };
    pgB = createPgCallsRepo(nodeB);
    for (const side of [sqlite, pg]) for (const sql of seed) await side.exec(sql);
  });

  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    sqliteDb?.close();
    server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the same step on SQLite and PostgreSQL, one after the other so ids match; answers both results. */
  async function both<T>(step: (side: Side) => Promise<T>): Promise<[T, T]> {
    const s = await step(sqlite);
    const p = await step(pg);
    return [s, p];
  }
  const outcome = <T>(p: Promise<T>) =>
    p.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );

  describe('a new call', () => {
    it('is written with its webhook and read back as SQLite reads it', async () => {
      const [s, p] = await both((side) => side.calls.create(call(1), webhook(1)));
      expect(p.id).toBe(1);
      expect(timeless(p)).toEqual(timeless(s));
      expect(p).toMatchObject({ visitorKey: 'v1', visitorNumber: 1, visitorName: 'Ann', status: 'start', duration: null });
      expect(await deliveries(pg)).toEqual(await deliveries(sqlite));
      const [found, foundPg] = await both(async (side) => [await side.calls.findById(1), await side.calls.liveOfClient(1)]);
      expect(foundPg.map(timeless)).toEqual(found.map(timeless));
      expect(foundPg[0]).toEqual(p);
    });

    it('answers undefined for a call or a live call that does not exist', async () => {
      const [s, p] = await both(async (side) => [await side.calls.findById(999), await side.calls.liveOfClient(2)]);
      expect(p).toEqual([undefined, undefined]);
      expect(s).toEqual(p);
    });

    it('throws CallInProgress when the visitor already has one, in both dialects, and writes nothing', async () => {
      const [s, p] = await both((side) => outcome(side.calls.create(call(1), webhook(1))));
      expect(!s.ok && s.error).toBeInstanceOf(CallInProgress);
      expect(!p.ok && p.error).toBeInstanceOf(CallInProgress);
      expect(await pg.rows('SELECT count(*)::int AS n FROM calls')).toEqual([{ n: 1 }]);
      expect(await deliveries(pg)).toEqual(await deliveries(sqlite));
    });

    it('may have no visitor (an incoming call reported by a provider)', async () => {
      const [s, p] = await both((side) => side.calls.create(call(null), null));
      expect(timeless(p)).toEqual(timeless(s));
      expect(p).toMatchObject({ clientId: null, visitorKey: null, visitorNumber: null, visitorName: null });
    });
  });

  describe('a status change', () => {
    it('changes nothing when the call is no longer in the status it was read in', async () => {
      const [s, p] = await both((side) => side.calls.transition(1, { from: 'agent_connected', status: 'end' }, null));
      expect(p).toBeUndefined();
      expect(s).toBeUndefined();
    });

    it('keeps the fields it does not set and writes its webhook', async () => {
      const [s, p] = await both((side) =>
        side.calls.transition(1, { from: 'start', status: 'agent_connected', agentId: 1 }, webhook(1)(1)),
      );
      expect(timeless(p)).toEqual(timeless(s));
      expect(p).toMatchObject({ status: 'agent_connected', agentId: 1, reason: null });
      const [s2, p2] = await both((side) =>
        side.calls.transition(1, { from: 'agent_connected', status: 'client_connected', connectedAt: 1000, recordUrl: 'http://r' }, null),
      );
      expect(timeless(p2)).toEqual(timeless(s2));
      expect(p2).toMatchObject({ agentId: 1, connectedAt: 1000, recordUrl: 'http://r' });
      expect(await deliveries(pg)).toEqual(await deliveries(sqlite));
    });

    it('spends the minutes from the channel balance when the call ends', async () => {
      const end = { from: 'client_connected' as const, status: 'end' as const, endedAt: 5000, duration: 130, minutes: 3 };
      const [s, p] = await both((side) => side.calls.transition(1, end, null));
      expect(timeless(p)).toEqual(timeless(s));
      expect(await balanceOf(pg)).toBe(97);
      expect(await balanceOf(sqlite)).toBe(97);
      const [rawS] = await sqlite.rows('SELECT callback_json FROM channels WHERE id = 1');
      const [rawP] = await pg.rows('SELECT callback_json FROM channels WHERE id = 1');
      // The settings keep their keys in order: the JSON text reads the same.
      expect(JSON.parse(rawP!.callback_json as string)).toStrictEqual(JSON.parse(rawS!.callback_json as string));
      expect(Object.keys(JSON.parse(rawP!.callback_json as string))).toEqual(['enabled', 'time_zone', 'schedule', 'balance']);
    });

    it('spends nothing from a channel without callback settings, and nulls a missing balance as SQLite does', async () => {
      const [s, p] = await both(async (side) => {
        const plain = await side.calls.create(call(3, 2), null);
        await side.calls.transition(plain.id, { from: 'start', status: 'error', reason: 'busy', minutes: 2 }, null);
        await side.exec(`UPDATE channels SET callback_json = '{"enabled":false}' WHERE id = 2`);
        const again = await side.calls.create(call(3, 2), null);
        const ended = await side.calls.transition(again.id, { from: 'start', status: 'end', minutes: 1 }, null);
        const balance = await balanceOf(side, 2);
        await side.exec('UPDATE channels SET callback_json = NULL WHERE id = 2');
        return [timeless(ended), balance];
      });
      expect(p).toEqual(s);
      expect(p[1]).toBeNull();
    });
  });

  describe('the calls of an agent', () => {
    it('lists the calls in progress and the ended ones of the channels the agent serves, newest first', async () => {
      await both(async (side) => {
        await side.calls.create(call(2), null);
        await side.calls.create(call(4, 3), null); // a deleted channel: never listed
      });
      for (const [agent, state] of [
        [1, 'active'],
        [1, 'ended'],
        [2, 'active'],
        [2, 'ended'],
      ] as const) {
        const [s, p] = await both((side) => side.calls.listForAgent(agent, state));
        expect(p.map(timeless)).toEqual(s.map(timeless));
      }
      // Ids 2 (refused), 3 (no visitor), 4 and 5 (channel 2), 6 (visitor 2), 7 (deleted channel).
      expect((await pg.calls.listForAgent(1, 'active')).map((c) => c.id)).toEqual([6, 3]);
      expect((await pg.calls.listForAgent(2, 'ended')).map((c) => c.id)).toEqual([5, 4]);
    });
  });

  describe('offline messages', () => {
    it('are written with their webhook and listed for the agents of their channel, newest first, as in SQLite', async () => {
      const message = { name: 'Ann', email: 'ann@x.test', phone: null, description: null, message: 'Call me' };
      const [s, p] = await both(async (side) => [
        await side.offline.add({ ...message, channelId: 1, clientId: 1 }, offlineWebhook(1)),
        await side.offline.add({ ...message, channelId: 1, clientId: null, name: null }, null),
        await side.offline.add({ ...message, channelId: 2, clientId: 3 }, null),
        await side.offline.add({ ...message, channelId: 3, clientId: 4 }, null),
      ]);
      const timelessMessage = <T extends { createdAt: number }>(m: T) => ({ ...m, createdAt: 0 });
      expect(p.map(timelessMessage)).toEqual(s.map(timelessMessage));
      expect(p[0]).toMatchObject({ id: 1, visitorKey: 'v1', message: 'Call me' });
      expect(await deliveries(pg)).toEqual(await deliveries(sqlite));
      for (const [agent, limit] of [
        [1, undefined],
        [1, 1],
        [2, 200],
      ] as const) {
        const [ls, lp] = await both((side) => side.offline.listForAgent(agent, limit));
        expect(lp.map(timelessMessage)).toEqual(ls.map(timelessMessage));
      }
      expect((await pg.offline.listForAgent(1)).map((m) => m.id)).toEqual([2, 1]);
    });
  });

  describe('two nodes at once', () => {
    it('let one of two callback requests of a visitor through; the other hears CallInProgress', async () => {
      const earlier = await pg.calls.liveOfClient(2);
      await pg.calls.transition(earlier!.id, { from: 'start', status: 'end' }, null);
      for (let round = 0; round < 10; round++) {
        const results = await Promise.all([outcome(pg.calls.create(call(2), null)), outcome(pgB.create(call(2), null))]);
        const live = await pg.calls.liveOfClient(2);
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        for (const r of results) if (!r.ok) expect(r.error).toBeInstanceOf(CallInProgress);
        // Free the visitor for the next round.
        await pg.calls.transition(live!.id, { from: 'start', status: 'error', reason: 'test' }, null);
      }
    });

    it('spend every ended call from the balance, each once, when both end calls of one channel together', async () => {
      await pg.exec(`UPDATE channels SET callback_json = '{"enabled":true,"balance":1000}' WHERE id = 1`);
      const ids: number[] = [];
      for (let i = 0; i < 20; i++) ids.push((await pg.calls.create(call(null), null)).id);
      const end = { from: 'start' as const, status: 'end' as const, endedAt: 1, duration: 61, minutes: 2 };
      // Each call is ended by both nodes at once: one of them wins, so 20 calls cost 40 minutes.
      const results = await Promise.all(ids.flatMap((id) => [pg.calls.transition(id, end, null), pgB.transition(id, end, null)]));
      expect(results.filter((r) => r !== undefined)).toHaveLength(20);
      expect(await balanceOf(pg)).toBe(1000 - 40);
    });
  });
});
