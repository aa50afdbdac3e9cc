import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV_TEMP_DIR } from './e2e-env.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface ReadOnlyDatabase {
  exec(sql: string): void;
  prepare(sql: string): { get(): unknown };
  close(): void;
}

/**
 * A read transaction on the e2e server's SQLite database from this process, as a backup holds one: until it is
 * released the server cannot empty the write-ahead log, so an erasure answers 202 (docs/admin-api.md). The driver
 * is the server's own.
 */
export function holdDatabaseReader(): { release: () => void } {
  const tempDir = process.env[ENV_TEMP_DIR];
  if (!tempDir) throw new Error('The e2e server is not running: run the tests with -c e2e/playwright.config.ts');
  const Database = createRequire(path.join(repoRoot, 'server/package.json'))('better-sqlite3') as new (
    file: string,
    options: { readonly: boolean },
  ) => ReadOnlyDatabase;
  const db = new Database(path.join(tempDir, 'db.sqlite'), { readonly: true });
  db.exec('BEGIN');
  db.prepare('SELECT count(*) FROM messages').get();
  return {
    release: () => {
      db.exec('COMMIT');
      db.close();
    },
  };
}
