// The stores an outbound benchmark runs on: `BENCH_STORES=sqlite,postgres` (the default) or one of them. Each
// run gets a fresh SQLite file or a fresh database on a throw-away PostgreSQL server started once.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startPostgres } from '../../scripts/lib/engines.mjs';
import { postgresPids } from './bench-process.ts';
import { printStatementStats, resetStatementStats, statementStatsSettings } from './pg-statement-stats.ts';

export type StoreName = 'sqlite' | 'postgres';

export interface BenchStores {
  names: StoreName[];
  /** A new, empty database of `store` for one run: a file path or a PostgreSQL URL (what SVC_DB takes). */
  database(store: StoreName, name: string): string;
  /** The processes of the database engine whose CPU time a run counts (none for SQLite: it runs in the node). */
  enginePids(store: StoreName): number[];
  stop(): void;
  /** With BENCH_PG_STATEMENTS=1, forgets what PostgreSQL counted so far in this run's database: the outbox-alone
   * runs count from the moment the receiver starts answering, not the intake before it. */
  resetStats(): void;
}

export async function benchStores(): Promise<BenchStores> {
  const names = (process.env.BENCH_STORES ?? 'sqlite,postgres')
    .split(',')
    .filter((s): s is StoreName => s === 'sqlite' || s === 'postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-outbound-bench-'));
  const pg = names.includes('postgres') ? await startPostgres({ maxConnections: 100, settings: statementStatsSettings }) : undefined;
  // With BENCH_PG_STATEMENTS=1, a run's engine statistics are printed when the next run asks for a database, or at stop.
  let lastPgDatabase: string | undefined;
  const printLast = () => lastPgDatabase && printStatementStats(pg!, lastPgDatabase);
  return {
    names,
    database(store, name) {
      if (store !== 'postgres') return path.join(dir, `${name}.sqlite`);
      printLast();
      const url = pg!.createDatabase(name);
      resetStatementStats(pg!);
      lastPgDatabase = name;
      return url;
    },
    enginePids: (store) => (store === 'postgres' ? postgresPids(path.join(pg!.dir, 'data')) : []),
    resetStats: () => pg && resetStatementStats(pg),
    stop() {
      printLast();
      pg?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** SQL with `$n` parameters run straight on a service's database (a SQLite file or a PostgreSQL URL), beside the
 * running service or after it stopped. */
export async function openBenchDatabase(database: string) {
  if (database.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    return {
      run: async (sql: string, params: unknown[] = []) => void (await client.query(sql, params)),
      all: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
      close: () => client.end(),
    };
  }
  const db = new Database(database);
  db.pragma('busy_timeout = 10000');
  const prepare = (sql: string) => db.prepare(sql.replace(/\$(\d+)/g, '@p$1'));
  const named = (params: unknown[]) => Object.fromEntries(params.map((value, i) => [`p${i + 1}`, value]));
  return {
    run: async (sql: string, params: unknown[] = []) => void prepare(sql).run(named(params)),
    all: async <Row>(sql: string, params: unknown[] = []) => prepare(sql).all(named(params)) as Row[],
    close: async () => db.close(),
  };
}
