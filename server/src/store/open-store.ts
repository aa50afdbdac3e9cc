import { openPgStore } from './postgres/pg-store.ts';
import type { ErasuresCompleted } from './sqlite/privacy-repo.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';
import type { Store } from './store.ts';

export interface StoreOptions {
  /** `SVC_DB`: a SQLite file path (the embedded default), or a `postgres://` URL. */
  db: string;
  /** SQLite's `synchronous` in WAL mode: `full` means a commit is on disk before it returns. */
  sync: 'full' | 'normal' | 'off' | 'extra';
  /** PostgreSQL: connections in this node's pool. */
  poolSize?: number;
  /** SQLite: erasures that waited for another process reading the database (a backup) became complete, at start
   * or once it let go. PostgreSQL's are complete at once. */
  onErasuresCompleted?: (completed: ErasuresCompleted) => void;
}

/** `SVC_DB` names PostgreSQL with a URL; anything else is a SQLite file path. */
export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value);

/** Opens the store of the dialect `SVC_DB` names and brings its schema up to date. */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (isPostgresUrl(options.db)) return openPgStore({ url: options.db, poolSize: options.poolSize });
  return openSqliteStore({ path: options.db, sync: options.sync, onErasuresCompleted: options.onErasuresCompleted });
}
