import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BusinessHours, CallbackSettings } from '@svc/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres, type RunningPostgres } from '../../scripts/lib/engines.mjs';
import { createAgentsRepo } from '../src/store/sqlite/agents-repo.ts';
import type { AgentsRepo } from '../src/store/agents.ts';
import { createChannelsRepo } from '../src/store/sqlite/channels-repo.ts';
import type { ChannelsRepo, NewChannel } from '../src/store/channels.ts';
import { openDb, type Db } from '../src/store/sqlite/db.ts';
import { createDepartmentsRepo } from '../src/store/sqlite/departments-repo.ts';
import { DepartmentNameTaken, type DepartmentsRepo } from '../src/store/departments.ts';
import { createPgAgentsRepo } from '../src/store/postgres/agents-repo.ts';
import { createPgChannelsRepo } from '../src/store/postgres/channels-repo.ts';
import { createPgDepartmentsRepo } from '../src/store/postgres/departments-repo.ts';
import { openPgDb, type PgDb } from '../src/store/postgres/pg-db.ts';

interface Repos {
  agents: AgentsRepo;
  channels: ChannelsRepo;
  departments: DepartmentsRepo;
}

let server: RunningPostgres | undefined;
let skip: string | undefined;
beforeAll(async () => {
  try {
    server = await startPostgres({ fsync: false });
  } catch (error) {
    skip = engineUnavailable(error);
  }
});
afterAll(() => server?.stop());

let databases = 0;
let dir: string;
let sqlite: Db;
let pgDbs: PgDb[] = [];
let lite: Repos;
let pgUrl: string;

const pgRepos = (db: PgDb): Repos => ({
  agents: createPgAgentsRepo(db),
  channels: createPgChannelsRepo(db),
  departments: createPgDepartmentsRepo(db),
});
/** One more node on the test's PostgreSQL database. */
async function pgNode(): Promise<Repos> {
  const db = await openPgDb({ url: pgUrl, poolSize: 4 });
  pgDbs.push(db);
  return pgRepos(db);
}

beforeEach(async (ctx) => {
  if (skip) return ctx.skip();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pgchannels-'));
  sqlite = openDb({ path: path.join(dir, 'db.sqlite'), sync: 'off' });
  lite = { agents: createAgentsRepo(sqlite), channels: createChannelsRepo(sqlite), departments: createDepartmentsRepo(sqlite) };
  pgUrl = server!.createDatabase(`pgchannels_${++databases}`);
  pgDbs = [];
});
afterEach(async () => {
  sqlite?.close();
  await Promise.all(pgDbs.map((db) => db.close()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Times and random secrets differ between two runs; everything else must not. */
const normalize = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value ?? null, (key, v: unknown) => (key === 'createdAt' ? 0 : key === 'secret' ? typeof v : v)));

const outcome = async (work: Promise<unknown>) => {
  try {
    return { value: normalize(await work) };
  } catch (error) {
    return { threw: error instanceof DepartmentNameTaken ? error.message : 'a database error' };
  }
};

/** Runs the same call on SQLite and on PostgreSQL and expects the same answer. */
async function same<T>(pg: Repos, call: (r: Repos) => Promise<T>): Promise<unknown> {
  const expected = await outcome(call(lite));
  expect(await outcome(call(pg))).toEqual(expected);
  return expected;
}

/** The same seed rows in both databases. */
function seedSql(sql: string) {
  sqlite.exec(sql);
  return pgDbs[0]!.run(sql);
}

/**
 * SQLite answers an agent's channels in the order they were added (its query has no ORDER BY and walks the
 * agent_id index in rowid order); PostgreSQL has no such order and answers them by id.
 */
const channelIdsOf = async (r: Repos, agentId: number) => (await r.agents.channelIds(agentId)).sort((x, y) => x - y);

const agent = (n: number, email = `agent${n}@example.com`) => ({
  name: `Agent ${n}`,
  email,
  passwordHash: `hash${n}`,
  photo: null,
  role: 'agent' as const,
});

const channel = (n: number, agentIds: number[] = []): NewChannel => ({
  publicId: `ch${n}`,
  kind: n % 2 ? 'widget' : 'chat_api',
  name: `Channel ${n}`,
  randomString: `rnd${n}`,
  webhookUrl: n % 2 ? null : `https://example.com/hook${n}`,
  chunked: n % 2 === 0,
  safeDomains: ['shop.example', '*.example.org'],
  webhookEvents: ['chat_accepted', 'chat_finished'],
  agentIds,
  signingSecret: `whsec_${n}`,
  callback: n % 2 ? callback : null,
});

const callback: CallbackSettings = {
  enabled: true,
  time_zone: 'Europe/Oslo',
  schedule: { mon: [{ from: '09:00', to: '17:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
  balance: 12.5,
};
const weekdayHours: BusinessHours = {
  time_zone: 'UTC',
  schedule: { mon: [{ from: '09:00', to: '17:00' }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
  holidays: ['2024-12-25'],
  outside: 'offline_form',
};
const mondayNoon = new Date('2024-06-03T12:00:00Z');
const mondayNight = new Date('2024-06-03T22:00:00Z');

describe('postgres agents repository', () => {
  it('answers every read and write as the SQLite one does', async () => {
    const pg = await pgNode();
    await same(pg, (r) => r.agents.create(agent(1, 'Ann@Example.com'), 'tok1'));
    await same(pg, (r) => r.agents.create({ ...agent(2), role: 'admin', photo: 'https://example.com/a.png' }, 'tok2'));
    await same(pg, (r) => r.agents.create(agent(3), 'tok3'));
    await same(pg, (r) => r.agents.findCredentials('ANN@example.COM'));
    await same(pg, (r) => r.agents.findCredentials('nobody@example.com'));
    await same(pg, (r) => r.agents.addToken(1, 'tok1b'));
    await same(pg, (r) => r.agents.findByTokenHash('tok1b'));
    await same(pg, (r) => r.agents.revokeToken('tok1b'));
    await same(pg, (r) => r.agents.findByTokenHash('tok1b'));
    await same(pg, (r) => r.agents.setStatus(2, 'online'));
    await same(pg, (r) => r.agents.findById(2));
    await same(pg, (r) => r.agents.findById(99));
    await same(pg, (r) => r.agents.existingIds([3, 99, 1, 3]));
    await same(pg, (r) => r.agents.existingIds([]));

    await seedSql(
      "INSERT INTO channels (public_id, kind, name, random_string, signing_secret, created_at) VALUES ('a', 'widget', 'A', 'r', 's', 1), ('b', 'widget', 'B', 'r', 's', 1), ('c', 'widget', 'C', 'r', 's', 1)",
    );
    await same(pg, (r) =>
      r.agents.update(1, { name: 'Ann B', email: 'ann.b@example.com', photo: null, role: 'admin', channelIds: [3, 1, 3] }),
    );
    await same(pg, (r) => channelIdsOf(r, 1));
    expect(await pg.agents.channelIds(1)).toEqual([1, 3]);
    await same(pg, (r) => r.agents.update(1, { channelIds: [2, 3] }));
    await same(pg, (r) => r.channels.delete(3));
    await same(pg, (r) => channelIdsOf(r, 1));
    await same(pg, (r) => r.agents.update(1, { channelIds: [7] })); // no such channel
    await same(pg, (r) => channelIdsOf(r, 1));
    await same(pg, (r) => r.agents.update(2, { email: 'ANN.B@example.com' }));
    await same(pg, (r) => r.agents.update(2, {}));
    await same(pg, (r) => r.agents.addToken(2, 'tok2b'));
    await same(pg, (r) => r.agents.update(2, { active: false, passwordHash: 'new' }));
    await same(pg, (r) => r.agents.findByTokenHash('tok2'));
    await same(pg, (r) => r.agents.update(2, { active: true }));
    await same(pg, (r) => r.agents.list());
    // Last: a failed insert uses up a PostgreSQL identity value but no SQLite rowid.
    await same(pg, (r) => r.agents.create(agent(3, 'ANN.b@EXAMPLE.com'), 'tok3')); // e-mails are unique without case
  });

  it('when two nodes replace one agent’s channels at once, one list wins whole', async () => {
    const [a, b] = [await pgNode(), await pgNode()];
    await a.agents.create(agent(1), 't');
    await pgDbs[0]!.run(
      "INSERT INTO channels (public_id, kind, name, random_string, signing_secret, created_at) SELECT 'c' || i, 'widget', 'C', 'r', 's', 1 FROM generate_series(1, 6) i",
    );
    for (let i = 0; i < 20; i++) {
      await Promise.all([a.agents.update(1, { channelIds: [1, 2, 3] }), b.agents.update(1, { name: `n${i}`, channelIds: [4, 5, 6] })]);
      expect([
        [1, 2, 3],
        [4, 5, 6],
      ]).toContainEqual(await a.agents.channelIds(1));
    }
  });
});

describe('postgres channels repository', () => {
  it('answers every read and write as the SQLite one does', async () => {
    const pg = await pgNode();
    for (const n of [1, 2, 3]) await same(pg, (r) => r.agents.create(agent(n), `t${n}`));
    await seedSql("INSERT INTO bot_providers (provider_id, name, endpoint, created_at) VALUES ('prov', 'Bot', 'https://bot.example', 1)");
    await same(pg, (r) => r.channels.create(channel(1, [3, 1])));
    await same(pg, (r) => r.channels.create(channel(2)));
    await same(pg, (r) => r.channels.create(channel(3, [2])));
    await same(pg, (r) => r.channels.findByPublicId('ch2'));
    await same(pg, (r) => r.channels.findByPublicId('nope'));
    await same(pg, (r) =>
      r.channels.update(2, {
        name: 'Two',
        webhookUrl: null,
        chunked: false,
        safeDomains: [],
        webhookEvents: ['call_event'],
        signingSecret: 'whsec_x',
        callback,
        agentIds: [2, 3],
      }),
    );
    await same(pg, (r) => r.channels.update(1, { bot: { providerRowId: 1, token: 'bt' }, agentIds: [] }));
    await same(pg, (r) => r.channels.update(3, { bot: { providerRowId: 1, token: 'bt3' } }));
    await same(pg, (r) => r.channels.withBot(1));
    await same(pg, (r) => r.channels.update(3, { bot: null }));
    await same(pg, (r) => r.channels.withBot(1));
    await same(pg, (r) => r.channels.update(99, { name: 'none' }));
    await same(pg, (r) => r.channels.delete(3));
    await same(pg, (r) => r.channels.delete(3));
    await same(pg, (r) => r.channels.update(3, { name: 'deleted' }));
    await same(pg, (r) => r.channels.findById(3));
    await same(pg, (r) => r.channels.list());

    await same(pg, (r) => r.channels.status(2, mondayNoon)); // agents offline
    await same(pg, (r) => r.agents.setStatus(3, 'online'));
    await same(pg, (r) => r.channels.status(2, mondayNoon));
    await same(pg, (r) => r.channels.status(1, mondayNoon)); // no agents
    await same(pg, (r) => r.channels.setBusinessHours(2, weekdayHours));
    await same(pg, (r) => r.channels.businessHours(2));
    await same(pg, (r) => r.channels.status(2, mondayNoon));
    await same(pg, (r) => r.channels.status(2, mondayNight));
    await same(pg, (r) => r.channels.setBusinessHours(2, { ...weekdayHours, outside: 'accept' }));
    await same(pg, (r) => r.channels.status(2, mondayNight));
    await same(pg, (r) => r.channels.setBusinessHours(1, weekdayHours));
    await same(pg, (r) => r.channels.withBusinessHours());
    await same(pg, (r) => r.channels.setBusinessHours(2, null));
    await same(pg, (r) => r.channels.businessHours(2));
    await same(pg, (r) => r.channels.withBusinessHours());
    await same(pg, (r) => r.agents.update(3, { active: false }));
    await same(pg, (r) => r.channels.status(2, mondayNoon)); // a deactivated agent is offline
    await same(pg, (r) => r.channels.status(99));

    await same(pg, (r) => r.channels.identity(1));
    const first = await pg.channels.identity(1);
    expect(await pg.channels.identity(1)).toEqual(first);
    await same(pg, (r) => r.channels.requireVerifiedUsers(1, true));
    await same(pg, (r) => r.channels.rotateIdentitySecret(1));
    await same(pg, (r) => r.channels.identity(1));
    expect((await pg.channels.identity(1)).secret).not.toBe(first.secret);

    await same(pg, (r) => r.channels.transcripts(2));
    await same(pg, (r) => r.channels.setTranscripts(2, { archiveEmail: 'archive@example.com' }));
    await same(pg, (r) => r.channels.transcripts(2));
    await same(pg, (r) => r.channels.setTranscripts(2, { toCustomer: false }));
    await same(pg, (r) => r.channels.setTranscripts(2, {}));
    await same(pg, (r) => r.channels.transcripts(2));
    await same(pg, (r) => r.channels.setTranscripts(2, { archiveEmail: null, toCustomer: true }));
    await same(pg, (r) => r.channels.transcripts(2));
    await same(pg, (r) => r.channels.create(channel(2))); // public id taken
  });

  it('when two nodes first ask for a channel’s identity at once, both answer the one secret stored', async () => {
    const [a, b] = [await pgNode(), await pgNode()];
    for (let n = 1; n <= 10; n++) {
      const { id } = await a.channels.create(channel(n));
      const answers = await Promise.all([
        a.channels.identity(id),
        b.channels.identity(id),
        a.channels.identity(id),
        b.channels.identity(id),
      ]);
      expect(new Set(answers.map((x) => x.secret)).size).toBe(1);
      expect(await a.channels.identity(id)).toEqual(answers[0]);
    }
  });

  it('when two nodes replace one channel’s agents at once, one list wins whole', async () => {
    const [a, b] = [await pgNode(), await pgNode()];
    for (const n of [1, 2, 3, 4]) await a.agents.create(agent(n), `t${n}`);
    const { id } = await a.channels.create(channel(1));
    for (let i = 0; i < 20; i++) {
      await Promise.all([a.channels.update(id, { agentIds: [1, 2] }), b.channels.update(id, { name: `n${i}`, agentIds: [3, 4] })]);
      expect([
        [1, 2],
        [3, 4],
      ]).toContainEqual((await a.channels.findById(id))!.agentIds);
    }
  });
});

describe('postgres departments repository', () => {
  it('answers every read and write as the SQLite one does', async () => {
    const pg = await pgNode();
    for (const n of [1, 2, 3]) await same(pg, (r) => r.agents.create(agent(n), `t${n}`));
    await same(pg, (r) => r.departments.create({ name: 'beta', agentIds: [3, 1] }));
    await same(pg, (r) => r.departments.create({ name: 'Alpha', agentIds: [] }));
    await same(pg, (r) => r.departments.create({ name: 'Zed', agentIds: [2] }));
    await same(pg, (r) => r.departments.create({ name: '_under', agentIds: [] }));
    await same(pg, (r) => r.departments.list()); // NOCASE order: Alpha, beta, _under, Zed
    await same(pg, (r) => r.departments.update(2, { name: 'ALPHA' })); // its own name in another case
    await same(pg, (r) => r.departments.update(2, { agentIds: [2, 3] }));
    await same(pg, (r) => r.departments.update(2, {}));
    await same(pg, (r) => r.departments.update(99, { name: 'x' }));
    await same(pg, (r) => r.departments.findById(2));
    await same(pg, (r) => r.departments.findById(99));
    await same(pg, (r) => r.departments.delete(3));
    await same(pg, (r) => r.departments.delete(3));
    await same(pg, (r) => r.departments.list());
    // Last: a failed insert uses up a PostgreSQL identity value but no SQLite rowid.
    await same(pg, (r) => r.departments.update(2, { name: 'BETA', agentIds: [1] }));
    await same(pg, (r) => r.departments.findById(2)); // the failed update changed nothing
    await same(pg, (r) => r.departments.create({ name: 'Beta', agentIds: [] }));
    await same(pg, (r) => r.departments.create({ name: 'Gamma', agentIds: [42] })); // no such agent
    await same(pg, (r) => r.departments.list());
  });

  it('when two nodes create the same name at once, one gets it and the other hears the name is taken', async () => {
    const [a, b] = [await pgNode(), await pgNode()];
    for (let i = 0; i < 10; i++) {
      const results = await Promise.allSettled([
        a.departments.create({ name: `Sales ${i}`, agentIds: [] }),
        b.departments.create({ name: `SALES ${i}`, agentIds: [] }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected');
      expect(rejected?.reason).toBeInstanceOf(DepartmentNameTaken);
    }
    expect(await a.departments.list()).toHaveLength(10);
  });
});
