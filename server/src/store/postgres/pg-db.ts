import { createHash } from 'node:crypto';
import pg from 'pg';
import { migratePg } from './migrate.ts';

// Ids and millisecond times are BIGINT; every one of them fits a JS number exactly (below 2^53).
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** What a repository runs its SQL on: the pool, or one transaction's connection. Parameters are `$1, $2...`. */
export interface PgSql {
  /** Every row. */
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  one<T>(sql: string, params?: unknown[]): Promise<T | undefined>;
  /** The first column of the first row, or undefined. */
  value<T>(sql: string, params?: unknown[]): Promise<T | undefined>;
  /** The number of rows the statement changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
}

export interface PgDb extends PgSql {
  /**
   * Runs `work` in one transaction (READ COMMITTED) on one connection: committed when it resolves, rolled back
   * when it throws. A serialization failure or deadlock runs the whole unit again, a few times.
   */
  tx<T>(work: (sql: PgSql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  pool: pg.Pool;
}

export interface OpenPgOptions {
  url: string;
  /** Connections in the pool of this node. */
  poolSize?: number;
}

const RETRYABLE = new Set(['40001', '40P01']);
const TX_ATTEMPTS = 5;

// Every statement is a named prepared statement: each connection parses and plans it once, not on every call.
// The repositories' SQL is a fixed set of texts (the few built ones vary only in which columns they set).
const statementNames = new Map<string, string>();
const named = (text: string, values: unknown[]): pg.QueryConfig => {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `svc_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`));
  return { name, text, values };
};

function sqlOver(q: pg.Pool | pg.PoolClient): PgSql {
  return {
    async all<T>(sql: string, params: unknown[] = []) {
      return (await q.query(named(sql, params))).rows as T[];
    },
    async one<T>(sql: string, params: unknown[] = []) {
      return (await q.query(named(sql, params))).rows[0] as T | undefined;
    },
    async value<T>(sql: string, params: unknown[] = []) {
      const result = await q.query({ ...named(sql, params), rowMode: 'array' });
      return (result.rows[0] as unknown[] | undefined)?.[0] as T | undefined;
    },
    async run(sql: string, params: unknown[] = []) {
      return (await q.query(named(sql, params))).rowCount ?? 0;
    },
  };
}

/** Connects a pool to the database of `SVC_DB=postgres://...` and brings its schema up to date. */
export async function openPgDb(options: OpenPgOptions): Promise<PgDb> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
  // An idle connection the server dropped must not take the process down; the next query reconnects.
  pool.on('error', () => undefined);
  await migratePg(pool);
  return {
    pool,
    ...sqlOver(pool),
    async tx<T>(work: (sql: PgSql) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        // A connection the server ends while it is checked out (a restart) emits 'error'; without a listener
        // that would end the process. Such a connection is dropped, not returned to the pool.
        let lost: Error | undefined;
        const onLost = (err: Error) => (lost = err);
        client.on('error', onLost);
        try {
          await client.query('BEGIN');
          const result = await work(sqlOver(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((err: Error) => (lost ??= err));
          const code = (error as { code?: string }).code;
          if (!(code && RETRYABLE.has(code) && attempt < TX_ATTEMPTS)) throw error;
        } finally {
          client.off('error', onLost);
          client.release(lost);
        }
      }
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * Runs a statement that is a transaction by itself (autocommit) again when PostgreSQL ended it as a deadlock
 * victim or a serialization failure, as `tx` does for its units: such a statement was rolled back whole.
 */
export async function retryingStatement<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (!(code && RETRYABLE.has(code) && attempt < TX_ATTEMPTS)) throw error;
    }
  }
}

/** An error PostgreSQL answered (a SQLSTATE): the statement was rolled back. Any other (the connection lost on
 * the way) leaves unknown whether it committed. */
export const answeredByServer = (error: unknown) => /^[0-9A-Z]{5}$/.test(String((error as { code?: unknown })?.code));

/** A unique violation (SQLite's `SQLITE_CONSTRAINT_UNIQUE`), for repositories that turn it into a domain answer. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
