import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportView } from '../src/reports/report-view.ts';
import { dayDate, dayNumber, offsetsBetween, startOfDay } from '../src/reports/time-zone.ts';
import { openPgDb, type PgDb } from '../src/store/postgres/pg-db.ts';
import { createPgReportsRepo } from '../src/store/postgres/reports-repo.ts';
import { eraseChatsSql } from '../src/store/privacy.ts';
import { rollupsServe, type ReportFilter, type ReportsRepo } from '../src/store/reports.ts';
import { openDb, type Db } from '../src/store/sqlite/db.ts';
import { createReportsRepo } from '../src/store/sqlite/reports-repo.ts';
import { migrate } from '../src/store/sqlite/migrate.ts';
import { migratePg } from '../src/store/postgres/migrate.ts';
import { reportRollupsMigration } from '../src/store/schema-report-rollups.ts';
import { freshTestDb, testDialect } from './support/test-db.ts';

// The rollups the triggers keep must answer every report exactly as the query over the chats does. Random
// histories of chats (opened, answered, noted, closed, reopened, rated, moved between departments, reassigned,
// erased) are written straight into the database the way the repositories write them, then reports in several
// zones, periods and filters are asked both ways.

const DAY = 86_400_000;
const MINUTE = 60_000;
const START = Date.UTC(2025, 2, 1);
const DAYS = 110;

interface Sql {
  run(sql: string, ...params: unknown[]): Promise<void>;
  all<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  id(sql: string, ...params: unknown[]): Promise<number>;
}

let dir: string;
let sql: Sql;
let reports: ReportsRepo;
let close: () => Promise<void>;
/** Makes the database as it was before the rollups' migration (its tables and triggers gone), then migrates it. */
let remigrate: () => Promise<void>;
const ROLLUP_TABLES = ['report_hours', 'report_agent_hours', 'report_agent_days', 'report_durations', 'report_agent_durations'];
const ROLLUP_TRIGGERS = [
  'chats_report_insert',
  'chats_report_hours_update',
  'chats_report_first_response_update',
  'chats_report_resolution_update',
  'chats_report_agents_update',
  'chats_report_delete',
  'chat_agents_report_insert',
  'chat_agents_report_delete',
];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-rollups-'));
  const url = await freshTestDb(dir);
  if (testDialect === 'sqlite') {
    const db: Db = openDb({ path: url, sync: 'off' });
    sql = {
      run: async (text, ...params) => void db.prepare(text).run(...params),
      all: async <T>(text: string, ...params: unknown[]) => db.prepare(text).all(...params) as T[],
      id: async (text, ...params) => Number(db.prepare(text).run(...params).lastInsertRowid),
    };
    reports = createReportsRepo(db);
    remigrate = async () => {
      for (const name of ROLLUP_TRIGGERS) db.exec(`DROP TRIGGER ${name}`);
      for (const name of ROLLUP_TABLES) db.exec(`DROP TABLE ${name}`);
      db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(reportRollupsMigration.version);
      migrate(db);
    };
    close = async () => {
      db.close();
    };
  } else {
    const db: PgDb = await openPgDb({ url });
    const numbered = (text: string) => {
      let n = 0;
      return text.replace(/\?/g, () => `$${++n}`);
    };
    sql = {
      run: async (text, ...params) => void (await db.run(numbered(text), params)),
      all: (text, ...params) => db.all(numbered(text), params),
      id: async (text, ...params) => (await db.value<number>(`${numbered(text)} RETURNING id`, params))!,
    };
    reports = createPgReportsRepo(db);
    remigrate = async () => {
      for (const name of ROLLUP_TRIGGERS) await db.run(`DROP FUNCTION ${name}_fn() CASCADE`);
      for (const name of ROLLUP_TABLES) await db.run(`DROP TABLE ${name}`);
      await db.run('DELETE FROM schema_migrations WHERE version = $1', [reportRollupsMigration.version]);
      await migratePg(db.pool);
    };
    close = () => db.close();
  }
});

afterAll(async () => {
  await close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function generator(seed: number) {
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  // durations around every bucket edge: seconds, minutes, hours and days
  const duration = () => Math.floor(pick([5_000, 90_000, 700_000, 3 * 3_600_000, 3 * DAY]) * random());
  return { random, pick, duration };
}

interface Chat {
  id: number;
  createdAt: number;
  open: boolean;
}

async function writeHistory(seed: number, operations: number) {
  const { random, pick, duration } = generator(seed);
  const now = Date.now();
  const channels: number[] = [];
  for (const name of [`a${seed}`, `b${seed}`])
    channels.push(
      await sql.id(
        `INSERT INTO channels (public_id, kind, name, random_string, signing_secret, created_at) VALUES (?, 'chat_api', ?, 'r', 's', ?)`,
        name,
        name,
        now,
      ),
    );
  const departments: (number | null)[] = [null];
  for (const name of [`Sales ${seed}`, `Support ${seed}`])
    departments.push(await sql.id('INSERT INTO departments (name, created_at) VALUES (?, ?)', name, now));
  const agents: number[] = [];
  for (const name of ['Ann', 'Bob', 'Cid'])
    agents.push(
      await sql.id(
        `INSERT INTO agents (name, email, password_hash, created_at) VALUES (?, ?, 'x', ?)`,
        name,
        `${name}-${seed}@rollups.test`,
        now,
      ),
    );
  const chats: Chat[] = [];
  const message = (chat: Chat, author: string, agentId: number | null, at: number, internal = 0) =>
    sql.run(
      `INSERT INTO messages (chat_id, author, agent_id, type, text, delivery, created_at, internal) VALUES (?, ?, ?, 'text', 'hi', 'delivered', ?, ?)`,
      chat.id,
      author,
      agentId,
      at,
      internal,
    );
  for (let i = 0; i < operations; i++) {
    const chat = chats.length > 0 ? pick(chats) : undefined;
    const operation = chat
      ? pick(['open', 'open', 'answer', 'answer', 'note', 'close', 'close', 'reopen', 'rate', 'move', 'assign', 'erase'])
      : 'open';
    if (operation === 'open' || !chat) {
      const channelId = pick(channels);
      const clientId = await sql.id(
        `INSERT INTO clients (channel_id, external_key, external_id_json, created_at, updated_at) VALUES (?, ?, '1', ?, ?)`,
        channelId,
        `c${seed}-${i}`,
        now,
        now,
      );
      // any minute of the period, some right at the edges of UTC days and hours
      const createdAt = START + Math.floor(random() * DAYS) * DAY + pick([0, DAY - MINUTE, Math.floor(random() * DAY)]);
      const opened: Chat = {
        id: await sql.id(
          `INSERT INTO chats (channel_id, client_id, state, department_id, created_at) VALUES (?, ?, 'open', ?, ?)`,
          channelId,
          clientId,
          pick(departments),
          createdAt,
        ),
        createdAt,
        open: true,
      };
      chats.push(opened);
      if (random() < 0.9) await message(opened, 'client', null, createdAt + duration());
    } else if (operation === 'answer') {
      await message(chat, 'agent', pick(agents), chat.createdAt + duration());
    } else if (operation === 'note') {
      await message(chat, 'agent', pick(agents), chat.createdAt + duration(), 1);
    } else if (operation === 'close') {
      await sql.run(`UPDATE chats SET state = 'closed', closed_at = ? WHERE id = ?`, chat.createdAt + duration(), chat.id);
      chat.open = false;
    } else if (operation === 'reopen' && chat.open === false) {
      // a customer writing in a closed chat of the Chat API opens it again
      const live = await sql.all(
        `SELECT id FROM chats WHERE client_id = (SELECT client_id FROM chats WHERE id = ?) AND state != 'closed'`,
        chat.id,
      );
      if (live.length === 0) {
        await sql.run(`UPDATE chats SET state = 'open', closed_at = NULL WHERE id = ?`, chat.id);
        chat.open = true;
      }
    } else if (operation === 'rate') {
      await sql.run('UPDATE chats SET rate = ? WHERE id = ?', pick(['positive', 'negative', null]), chat.id);
    } else if (operation === 'move') {
      await sql.run('UPDATE chats SET department_id = ? WHERE id = ?', pick(departments), chat.id);
    } else if (operation === 'assign') {
      await sql.run('UPDATE chats SET assigned_agent_id = ? WHERE id = ?', pick(agents), chat.id);
    } else if (operation === 'erase') {
      for (const statement of eraseChatsSql('?')) await sql.run(statement, chat.id);
      chats.splice(chats.indexOf(chat), 1);
    }
  }
  return { channels, departments, agents };
}

/** The report's filter as the route builds it. */
function filterFor(from: string, to: string, tz: string, extra: Partial<ReportFilter> = {}): ReportFilter {
  const start = startOfDay(from, tz);
  const end = startOfDay(dayDate(dayNumber(to) + 1), tz);
  return { from: start, to: end, ...offsetsBetween(tz, start, end), ...extra };
}

async function bothWays(from: string, to: string, filter: ReportFilter) {
  const fast = reportView(from, to, await reports.aggregate(filter));
  const exact = reportView(from, to, await reports.aggregate(filter, { exact: true }));
  return { fast, exact };
}

const periods: [string, string][] = [
  ['2025-03-01', '2025-06-30'],
  ['2025-03-30', '2025-05-02'],
  ['2025-04-10', '2025-04-10'],
  ['2025-05-31', '2025-06-02'],
];
const zones = ['UTC', 'Europe/Paris', 'America/New_York', 'Pacific/Kiritimati', 'Asia/Kolkata'];

describe('report rollups', () => {
  it('answer every report exactly as the query over the chats does, whatever happened to the chats', async () => {
    const { channels, departments, agents } = await writeHistory(7, 2500);
    let served = 0;
    for (const tz of zones)
      for (const [from, to] of periods)
        for (const extra of [
          {},
          { channelId: channels[0] },
          { departmentId: departments[1]! },
          { agentId: agents[1] },
        ] as Partial<ReportFilter>[]) {
          const filter = filterFor(from, to, tz, extra);
          if (rollupsServe(filter)) served++;
          const { fast, exact } = await bothWays(from, to, filter);
          expect(fast, `${tz} ${from}..${to} ${JSON.stringify(extra)}`).toEqual(exact);
        }
    // the comparison means something only when the reports had chats, and when the rollups answered most of them
    const whole = await bothWays('2025-03-01', '2025-06-30', filterFor('2025-03-01', '2025-06-30', 'Europe/Paris'));
    expect(whole.fast.chats).toBeGreaterThan(150);
    expect(whole.fast.rating.positive).toBeGreaterThan(0);
    expect(whole.fast.by_agent).toHaveLength(3);
    expect(whole.fast.first_response_seconds.p90).toBeGreaterThan(600);
    expect(served).toBe(4 * periods.length * 3);
  });

  it('count the chats that were there before the rollups were made', async () => {
    const { channels } = await writeHistory(11, 800);
    await remigrate();
    for (const tz of ['Europe/Paris', 'America/New_York'])
      for (const [from, to] of periods)
        for (const extra of [{}, { channelId: channels[1] }] as Partial<ReportFilter>[]) {
          const { fast, exact } = await bothWays(from, to, filterFor(from, to, tz, extra));
          expect(fast, `${tz} ${from}..${to} ${JSON.stringify(extra)}`).toEqual(exact);
        }
    const [durations] = await sql.all<{ count: number }>('SELECT COUNT(*) AS count FROM report_durations');
    expect(Number(durations!.count)).toBeGreaterThan(100);
  });

  it('a rollup row that drifts from the chats shows in the comparison', async () => {
    const filter = filterFor('2025-03-01', '2025-06-30', 'UTC');
    const [row] = await sql.all<{ hour: number; channel_id: number; department_id: number }>(
      'SELECT hour, channel_id, department_id FROM report_hours WHERE chats > 0 ORDER BY hour LIMIT 1',
    );
    const drift = (by: number) =>
      sql.run(
        'UPDATE report_hours SET missed = missed + ? WHERE hour = ? AND channel_id = ? AND department_id = ?',
        by,
        row!.hour,
        row!.channel_id,
        row!.department_id,
      );
    await drift(1);
    const { fast, exact } = await bothWays('2025-03-01', '2025-06-30', filter);
    expect(fast.missed).toBe(exact.missed + 1);
    await drift(-1);
  });
});
