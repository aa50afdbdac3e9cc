import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** Which store the integration suite runs against: `SVC_TEST_DB=postgres` switches every test server to PostgreSQL. */
export const testDialect: 'sqlite' | 'postgres' = process.env.SVC_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/** A new, empty database for one test server: a SQLite file in `dir`, or a new PostgreSQL database. */
export async function freshTestDb(dir: string): Promise<string> {
  if (testDialect === 'sqlite') return path.join(dir, 'svc.sqlite');
  const server = inject('pgServerUrl');
  if (!server) throw new Error('SVC_TEST_DB=postgres but no PostgreSQL was started (vitest globalSetup)');
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: `${server}postgres` });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return `${server}${name}`;
}
