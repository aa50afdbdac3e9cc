import pg from 'pg';
import { migrationsTable } from '../../src/store/schema-dialect.ts';
import { migrations } from '../../src/store/schema.ts';
import { postgresSchema } from '../../src/store/postgres/migrate.ts';

/**
 * A new PostgreSQL database as a release before `version` left it: every migration up to that one applied and
 * recorded, then `fill` run on it (the rows an upgrade must carry over). Its URL, for a node to migrate on.
 */
export async function pgDatabaseBeforeVersion(
  server: { createDatabase(name: string): string },
  name: string,
  version: number,
  fill: (pool: pg.Pool) => Promise<unknown>,
): Promise<string> {
  const url = server.createDatabase(name);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await pool.query(migrationsTable(postgresSchema));
    for (const m of migrations.filter((m) => m.version < version)) {
      await pool.query(m.sql(postgresSchema));
      await pool.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)', [m.version, m.name]);
    }
    await fill(pool);
  } finally {
    await pool.end();
  }
  return url;
}
