// The stores an outbound benchmark runs on: `BENCH_STORES=sqlite,postgres` (the default) or one of them. Each
// run gets a fresh SQLite file or a fresh database on a throw-away PostgreSQL server started once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startPostgres } from '../../scripts/lib/engines.mjs';
import { postgresPids } from './bench-process.ts';

export type StoreName = 'sqlite' | 'postgres';

export interface BenchStores {
  names: StoreName[];
  /** A new, empty database of `store` for one run: a file path or a PostgreSQL URL (what SVC_DB takes). */
  database(store: StoreName, name: string): string;
  /** The processes of the database engine whose CPU time a run counts (none for SQLite: it runs in the node). */
  enginePids(store: StoreName): number[];
  stop(): void;
}

export async function benchStores(): Promise<BenchStores> {
  const names = (process.env.BENCH_STORES ?? 'sqlite,postgres')
    .split(',')
    .filter((s): s is StoreName => s === 'sqlite' || s === 'postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-outbound-bench-'));
  const pg = names.includes('postgres') ? await startPostgres({ maxConnections: 100 }) : undefined;
  return {
    names,
    database: (store, name) => (store === 'postgres' ? pg!.createDatabase(name) : path.join(dir, `${name}.sqlite`)),
    enginePids: (store) => (store === 'postgres' ? postgresPids(path.join(pg!.dir, 'data')) : []),
    stop() {
      pg?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
