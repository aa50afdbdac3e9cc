// `BENCH_PG_STATEMENTS=1`: the benchmark's throw-away PostgreSQL loads pg_stat_statements (triggers' statements
// counted too), and before it stops, each database a run used prints what the engine did for it: time, calls and
// buffers per statement, HOT updates per table and index sizes. To see where the engine's own CPU goes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { postgresBinDir, type RunningPostgres } from '../../scripts/lib/engines.mjs';

export const statementStatsOn = process.env.BENCH_PG_STATEMENTS === '1';

/** Server settings for `startPostgres`: none unless asked for. */
export const statementStatsSettings = statementStatsOn
  ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.track=all', 'pg_stat_statements.max=2000']
  : [];

function psql(pg: RunningPostgres, database: string, sql: string): string {
  const result = spawnSync(path.join(postgresBinDir()!, 'psql'), [pg.url(database), '-X', '-P', 'pager=off', '-c', sql], {
    encoding: 'utf8',
  });
  return result.status === 0 ? result.stdout : `psql failed: ${result.stderr}`;
}

/** Forgets what was counted so far (call before the run to measure). */
export function resetStatementStats(pg: RunningPostgres): void {
  if (!statementStatsOn) return;
  psql(pg, 'postgres', 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()');
}

/** Prints what the engine did for `database` since the last reset (statements run fewer than 20 times, such as
 * the migrations, left out). */
export function printStatementStats(pg: RunningPostgres, database: string, top = 25): void {
  if (!statementStatsOn) return;
  psql(pg, 'postgres', 'CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  console.log(`\n-- PostgreSQL statements for database ${database} (pg_stat_statements, track=all), by total time`);
  console.log(
    psql(
      pg,
      'postgres',
      `SELECT round(s.total_exec_time::numeric, 1) AS total_ms, s.calls, s.rows,
        round((s.total_exec_time / nullif(s.calls, 0))::numeric, 3) AS ms_per_call,
        s.shared_blks_hit AS blks_hit, s.shared_blks_read AS blks_read, s.shared_blks_dirtied AS blks_dirtied,
        s.wal_records, s.toplevel AS top, left(regexp_replace(s.query, '\\s+', ' ', 'g'), 150) AS query
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname = '${database}' AND s.calls >= 20 ORDER BY s.total_exec_time DESC LIMIT ${top}`,
    ),
  );
  console.log(
    psql(
      pg,
      database,
      `SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del, seq_scan, idx_scan,
        pg_size_pretty(pg_table_size(relid)) AS table_size, pg_size_pretty(pg_indexes_size(relid)) AS indexes_size
       FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY n_tup_ins + n_tup_upd DESC`,
    ),
  );
  console.log(
    psql(
      pg,
      database,
      `SELECT relname AS table, indexrelname AS index, idx_scan, pg_size_pretty(pg_relation_size(indexrelid)) AS size
       FROM pg_stat_user_indexes WHERE relname IN ('chats', 'messages', 'clients', 'deliveries', 'delivery_attempts', 'chat_agents')
       ORDER BY pg_relation_size(indexrelid) DESC`,
    ),
  );
}
