import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate.ts';

export type Db = Database.Database;

/** How long a statement waits for a lock another connection holds before it fails busy. */
export const BUSY_TIMEOUT_MS = 5000;

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
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // An erased customer's bytes are overwritten, not left in free pages (contract: erased means unrecoverable).
  db.pragma('secure_delete = ON');
  migrate(db);
  // FTS5 merges the index's segments on writes once 4 of a level exist (its default): with a commit per group of
  // messages that merge work was most of a message's cost. At 16 a write merges a quarter as often; searches read
  // a few more segments, still in milliseconds (issue 16). Kept in the index's own config, so set on every start.
  db.exec("INSERT INTO messages_search (messages_search, rank) VALUES ('automerge', 16)");
  return db;
}
