import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

export interface OpenDbOptions {
  path: string;
  /** `synchronous` in WAL mode: `full` means a commit is on disk before it returns. */
  sync: 'full' | 'normal' | 'off' | 'extra';
}

/** Opens (and creates) the SQLite file, sets the pragmas every connection needs and runs pending migrations. */
export function openDb(options: OpenDbOptions): Db {
  if (options.path !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(options.path)), { recursive: true });
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.sync.toUpperCase()}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // An erased customer's bytes are overwritten, not left in free pages (contract: erased means unrecoverable).
  db.pragma('secure_delete = ON');
  migrate(db);
  return db;
}
