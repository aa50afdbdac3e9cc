// The CPU work PostgreSQL does for one stored message, counted in instructions by valgrind (callgrind) instead of
// timed, so that other work on a shared machine does not move it: a database at schema version 29 beside one at
// the latest version, in one run (from version 30 a message writes its chat's last one in `chat_activity`). Each statement has the shape of the one the service sends per message (an
// agent's message, with and without its outbox row, and a customer's message into a live chat), prepared once
// and executed by one backend in single-user mode; the figure is the difference between 230 and 30 executions,
// divided by 200, so the backend's start and the first plans are left out. Concurrency effects (row-lock waits,
// MultiXacts on a hot parent row, vacuum) are not in it: the many-node and outbound benchmarks show those.
// `pnpm exec tsx server/bench/pg-instructions.ts` (needs valgrind; takes a minute or two).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresBinDir, startPostgres } from '../../scripts/lib/engines.mjs';
import { migrationsTable } from '../src/store/schema-dialect.ts';
import { migrations } from '../src/store/schema.ts';
import { postgresSchema } from '../src/store/postgres/migrate.ts';
import { openPgDb } from '../src/store/postgres/pg-db.ts';

const CHATS = 500;
const asPostgres = (file: string, args: string[]) =>
  process.getuid?.() === 0 ? (['runuser', ['-u', 'postgres', '--', file, ...args]] as const) : ([file, args] as const);

const lockedChat = `locked AS (SELECT id, assigned_agent_id, state FROM chats WHERE id = $1 FOR UPDATE)`;
/** Makes the message of CTE `m` its chat's last one: in `chats` before version 30, in `chat_activity` from it. */
const madeLast = (apart: boolean) =>
  apart
    ? 'UPDATE chat_activity SET last_message_id = m.id, last_activity_at = m.created_at FROM m WHERE chat_activity.id = m.chat_id'
    : 'UPDATE chats SET last_message_id = m.id, last_activity_at = m.created_at FROM m WHERE chats.id = m.chat_id';
const agentMessage = (delivery: 'pending' | 'delivered', apart: boolean) => `
  ${lockedChat},
  m AS (
    INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, error, created_at)
    SELECT locked.id, 'agent', 1, 'text', 'Hello, about your order and the delivery to Zürich: it left today', NULL, NULL, '${delivery}', NULL,
      1764150000000 FROM locked RETURNING *
  ),
  ${
    apart
      ? `last AS (${madeLast(true)}),
  taken AS (
    UPDATE chats SET assigned_agent_id = 1, state = 'open' FROM locked
    WHERE chats.id = locked.id AND locked.assigned_agent_id IS NULL AND locked.state IN ('open', 'bot') RETURNING chats.id
  ),
  ch AS (SELECT chats.* FROM chats JOIN m ON m.chat_id = chats.id LEFT JOIN taken ON taken.id = chats.id)`
      : `ch AS (
    UPDATE chats SET last_message_id = m.id, last_activity_at = m.created_at,
      assigned_agent_id = CASE WHEN take.taken THEN 1 ELSE locked.assigned_agent_id END,
      state = CASE WHEN take.taken THEN 'open' ELSE locked.state END
    FROM m, locked, LATERAL (SELECT locked.assigned_agent_id IS NULL AND locked.state IN ('open', 'bot') AS taken) take
    WHERE chats.id = m.chat_id RETURNING chats.*
  )`
  }`;
const statements: Record<string, (apart: boolean) => string> = {
  'agent message': (apart) => `WITH ${agentMessage('delivered', apart)} SELECT ch.id FROM ch JOIN channels c ON c.id = ch.channel_id`,
  'agent message + delivery': (apart) => `WITH ${agentMessage('pending', apart)},
    ordering AS (SELECT pg_advisory_xact_lock(6086146, hashtext('chat:' || $1)) FROM m),
    d AS (
      INSERT INTO deliveries (kind, channel_id, chat_id, message_id, ordering_key, event_id, url, payload_json, max_attempts,
        next_attempt_at, created_at, replay_of)
      SELECT 'chat_api_message', 1, m.chat_id, m.id, 'chat:' || $1, md5(random()::text), 'http://127.0.0.1:9/x',
        '{"message":{"id":' || m.id::text || '}}', 5, 1764150000000, 1764150000000, NULL FROM m, ordering RETURNING id
    )
    SELECT ch.id FROM ch JOIN channels c ON c.id = ch.channel_id`,
  'customer message': (apart) => `WITH ${lockedChat},
    m AS (
      INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, created_at)
      SELECT locked.id, 'client', NULL, 'text', 'Hi, I have a question about order 12345 and the delivery to Zürich, thanks!', NULL, NULL,
        'delivered', 1764150000000 FROM locked RETURNING *
    ),
    last AS (${madeLast(apart)})
    SELECT id FROM m`,
};

const seed = `
  INSERT INTO agents (name, email, password_hash, created_at) VALUES ('A', 'a@example.com', 'x', 0);
  INSERT INTO channels (public_id, kind, name, random_string, signing_secret, created_at) VALUES ('ch', 'chat_api', 'C', 'r', 's', 0);
  INSERT INTO clients (channel_id, external_key, external_id_json, created_at, updated_at)
    SELECT 1, 'k' || g, '"' || g || '"', 0, 0 FROM generate_series(1, ${CHATS}) g;
  INSERT INTO chats (channel_id, client_id, state, created_at, assigned_agent_id)
    SELECT 1, id, 'open', 1764140000000, 1 FROM clients;
  -- each chat's first messages, so the runs measure the steady state (report facts already set)
  INSERT INTO messages (chat_id, author, agent_id, type, text, delivery, created_at)
    SELECT id, 'client', NULL, 'text', 'hi', 'delivered', 1764140000000 FROM chats;
  INSERT INTO messages (chat_id, author, agent_id, type, text, delivery, created_at)
    SELECT id, 'agent', 1, 'text', 'hi', 'delivered', 1764140000000 FROM chats;
  VACUUM ANALYZE;`;

async function databaseAt(server: Awaited<ReturnType<typeof startPostgres>>, name: string, version: number | 'latest') {
  const url = server.createDatabase(name);
  if (version === 'latest') await (await openPgDb({ url, poolSize: 1 })).close();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  if (version !== 'latest') {
    await pool.query(migrationsTable(postgresSchema));
    for (const m of migrations.filter((m) => m.version <= version)) await pool.query(m.sql(postgresSchema));
  }
  for (const sql of seed.split(';').filter((s) => s.trim())) await pool.query(sql);
  await pool.end();
}

function instructions(dataDir: string, database: string, statement: string, executions: number, dir: string): number {
  const script = path.join(dir, `script-${executions}.sql`);
  const lines = [`PREPARE s(bigint) AS ${statement.trim()};`];
  for (let i = 0; i < executions; i++) lines.push(`EXECUTE s(${((i * 7) % CHATS) + 1});`);
  fs.writeFileSync(script, lines.join('\n') + '\n');
  fs.chmodSync(script, 0o644);
  const [file, args] = asPostgres('valgrind', [
    '--tool=callgrind',
    '--callgrind-out-file=/dev/null',
    path.join(postgresBinDir()!, 'postgres'),
    '--single',
    '-j',
    '-D',
    dataDir,
    '-c',
    'autovacuum=off',
    database,
  ]);
  const run = spawnSync(file, args, { input: fs.readFileSync(script), encoding: 'utf8' });
  const collected = /Collected : (\d+)/.exec(run.stderr);
  if (!collected) throw new Error(`valgrind did not report: ${run.stderr.slice(-2000)}`);
  return Number(collected[1]);
}

async function main() {
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind is missing: sudo apt-get install -y valgrind');
  const server = await startPostgres({ fsync: false });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-instructions-'));
  fs.chmodSync(dir, 0o755);
  const dataDir = path.join(server.dir, 'data');
  try {
    const before = 29;
    const latest = migrations.at(-1)!.version;
    await databaseAt(server, 'before', before);
    await databaseAt(server, 'latest', 'latest');
    const [pgCtl, stopArgs] = asPostgres(path.join(postgresBinDir()!, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    execFileSync(pgCtl, stopArgs, { stdio: 'pipe' });
    console.log(`PostgreSQL instructions per statement (callgrind, one backend, (230 - 30 executions) / 200)\n`);
    console.log(`${'statement'.padEnd(28)}${`version ${before}`.padStart(14)}${`version ${latest}`.padStart(14)}   change`);
    for (const [name, statement] of Object.entries(statements)) {
      const per = (database: string, sql: string) =>
        (instructions(dataDir, database, sql, 230, dir) - instructions(dataDir, database, sql, 30, dir)) / 200;
      const [a, b] = [per('before', statement(before >= 30)), per('latest', statement(latest >= 30))];
      console.log(
        `${name.padEnd(28)}${`${(a / 1000).toFixed(0)}k`.padStart(14)}${`${(b / 1000).toFixed(0)}k`.padStart(14)}   ${(((b - a) / a) * 100).toFixed(1)}%`,
      );
    }
  } finally {
    server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
