import pg from 'pg';
import { afterAll } from 'vitest';

/**
 * Records every statement a pg client in this process sends (the test server runs in the test's process), as
 * `entry` makes it of the client and the SQL text, until the file's tests end. For counting round trips.
 */
export function recordPgStatements<T>(entry: (client: pg.Client, sql: string) => T): T[] {
  const sent: T[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    sent.push(entry(this, typeof first === 'string' ? first : (first.text ?? '')));
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  afterAll(() => void (pg.Client.prototype.query = query));
  return sent;
}
