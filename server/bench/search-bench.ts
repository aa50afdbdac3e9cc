// `pnpm bench`: search (GET /api/v1/search's store query) over BENCH_SEARCH_MESSAGES messages (default 1,000,000)
// in BENCH_SEARCH_MESSAGES / 10 chats, on SQLite and on PostgreSQL (skipped when PostgreSQL is not installed).
// The target (issue 17): p95 <= 50 ms for typical queries; also the index's size on disk as a share of the table.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { openPgDb, type PgDb } from '../src/store/postgres/pg-db.ts';
import { createPgSearchRepo } from '../src/store/postgres/search-repo.ts';
import type { SearchRepo } from '../src/store/search.ts';
import { openDb } from '../src/store/sqlite/db.ts';
import { createMessageSearchIndex } from '../src/store/sqlite/message-search-index.ts';
import { createSearchRepo } from '../src/store/sqlite/search-repo.ts';
import { createWriteBatcher } from '../src/store/sqlite/write-batcher.ts';
import { searchCorpus, type SearchCorpus } from './search-corpus.ts';

const messages = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const corpus = searchCorpus({ messages, chats: Math.max(1, Math.round(messages / 10)) });
const RUNS = 30;

/** Query kinds an agent types, each with a few variants so a single cached plan or page does not flatter it. */
function typicalQueries(c: SearchCorpus): Record<string, string[][]> {
  return {
    'common word': [['order'], ['please'], ['thanks']],
    'mid word': [['refund'], ['invoice'], ['broken']],
    'rare word': c.rareWords.slice(0, 6).map((w) => [w]),
    'two words': [
      ['order', 'refund'],
      ['delivery', 'broken'],
    ],
    'prefix as typed': [['deliv'], ['refu'], ['invo']],
    'client surname': c.surnames.slice(0, 6).map((s) => [s]),
    'client e-mail': c.surnames.slice(6, 12).map((s) => [s, 'mail']),
    // each matches one client in 12
    'client first name': [['anna'], ['marek'], ['omar']],
    'diacritics, Cyrillic': [['cafe'], ['заказ']],
    'no hit': [['zzqxv'], ['qqwwee']],
  };
}

const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

async function measure(label: string, search: SearchRepo, agentId: number) {
  const all: number[] = [];
  const rows: string[] = [];
  for (const [kind, variants] of Object.entries(typicalQueries(corpus))) {
    const times: number[] = [];
    let hits = 0;
    for (let i = 0; i < RUNS + variants.length; i++) {
      const words = variants[i % variants.length]!;
      const t0 = performance.now();
      const found = await search.search(agentId, words, 20);
      // the first round of each variant warms the cache and is left out
      if (i >= variants.length) times.push(performance.now() - t0);
      hits = Math.max(hits, found.length);
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    rows.push(
      `  ${kind.padEnd(22)} median ${p(times, 0.5).toFixed(1).padStart(6)} ms  p95 ${p(times, 0.95).toFixed(1).padStart(6)} ms  (${hits} hits)`,
    );
  }
  all.sort((a, b) => a - b);
  console.log(`search ${label}: ${rows.length} kinds of query x ${RUNS} runs, limit 20\n${rows.join('\n')}`);
  console.log(`search ${label}: all queries p95 ${p(all, 0.95).toFixed(1)} ms, p50 ${p(all, 0.5).toFixed(1)} ms (target p95 <= 50 ms)`);
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function sqlite() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-search-bench-'));
  const db = openDb({ path: path.join(dir, 'svc.sqlite'), sync: 'off' });
  try {
    const t0 = performance.now();
    const agentId = corpus.writeSqlite(db);
    // Written outside the group commit, which indexes the messages of each of its commits: indexed here at once.
    const searchIndex = createMessageSearchIndex(db);
    searchIndex.catchUp();
    console.log(
      `search sqlite: ${messages} messages in ${corpus.chats} chats written and indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const size = (like: string) =>
      db.prepare<[string], { bytes: number }>('SELECT COALESCE(SUM(pgsize), 0) AS bytes FROM dbstat WHERE name LIKE ?').get(like)!.bytes;
    const table = size('messages');
    const index = size('messages_search%');
    console.log(
      `search sqlite: messages table ${mb(table)}, its FTS5 index ${mb(index)} (${((index / table) * 100).toFixed(0)}% of the table); clients index ${mb(size('clients_search%'))}`,
    );
    await measure('sqlite', createSearchRepo(db, createWriteBatcher(db, { beforeCommit: searchIndex.catchUp }), searchIndex), agentId);
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres() {
  const server = await startPostgres({ fsync: false }).catch((error: unknown) => {
    engineUnavailable(error);
    return null;
  });
  if (!server) return console.log('search postgres: skipped (PostgreSQL is not installed)');
  let db: PgDb | undefined;
  try {
    db = await openPgDb({ url: server.createDatabase('search_bench'), poolSize: 2 });
    const t0 = performance.now();
    const agentId = await corpus.writePostgres(db);
    await db.run('VACUUM ANALYZE');
    console.log(
      `search postgres: ${messages} messages in ${corpus.chats} chats written (GIN kept on insert) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const size = async (relation: string) => Number(await db!.value<string>('SELECT pg_relation_size($1)', [relation]));
    const table = await size('messages');
    const index = await size('messages_search');
    console.log(
      `search postgres: messages table ${mb(table)}, its GIN index ${mb(index)} (${((index / table) * 100).toFixed(0)}% of the table); clients index ${mb(await size('clients_search'))}`,
    );
    await measure('postgres', createPgSearchRepo(db), agentId);
  } finally {
    await db?.close();
    server.stop();
  }
}

// BENCH_SEARCH_STORES=sqlite (or postgres) runs one of them
const stores = (process.env.BENCH_SEARCH_STORES ?? 'sqlite,postgres').split(',');
if (stores.includes('sqlite')) await sqlite();
if (stores.includes('postgres')) await postgres();
