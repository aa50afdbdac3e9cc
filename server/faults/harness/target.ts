import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgres, startRedis, type RunningPostgres } from '../../../scripts/lib/engines.mjs';
import { startNginx } from '../../../scripts/lib/nginx.mjs';
import { startServerProcess, type ServerProcess } from './server-process.ts';
import { integrityCheck } from './stored-check.ts';

/** What a scenario runs against: one node on a SQLite file, or two nodes on PostgreSQL and Redis behind nginx. */
export type TargetKind = 'sqlite' | 'cluster';

export interface Target {
  kind: TargetKind;
  /** Where clients send their requests (the node, or nginx in front of the nodes). */
  base: string;
  /** SIGKILL of the first node. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM of the first node: its exit code and how long the shutdown took. */
  stop(): Promise<{ code: number | null; ms: number }>;
  /** Starts the first node again on the same database and port. */
  restart(extraEnv?: Record<string, string>): Promise<Target>;
  /** The database's own consistency check after the nodes stopped: `ok`, or what it found. PostgreSQL keeps
   * its files consistent through crashes by itself; its check is that it answers and every message row
   * belongs to a chat. */
  integrity(): Promise<string>;
  /** Cluster only: the outbox rows the first node has claimed and not finished (its worker's id names its pid). */
  heldByFirstNode(): Promise<number[]>;
  /** Cluster only: the state of each of these outbox rows. */
  deliveryStates(ids: number[]): Promise<Map<number, string>>;
  /** Stops whatever still runs and removes the temp dirs. */
  dispose(): Promise<void>;
}

let kind: TargetKind = 'sqlite';

/** What `integrity()` checks, in words, for the scenarios' notes. */
export const integrityCheckName = () =>
  kind === 'sqlite' ? 'PRAGMA integrity_check' : 'the PostgreSQL check (every message has its chat)';
export const setTarget = (k: TargetKind) => void (kind = k);
export const currentTarget = () => kind;

// One PostgreSQL for the whole suite (each cluster gets a new database on it), stopped when the suite ends.
let postgres: Promise<RunningPostgres> | undefined;
let startedPostgres: RunningPostgres | undefined;
process.on('exit', () => startedPostgres?.stop());

/** Starts the current target with extra server environment. */
export function startTarget(env: Record<string, string> = {}): Promise<Target> {
  return kind === 'sqlite' ? startSqliteTarget(env) : startClusterTarget(env);
}

async function startSqliteTarget(env: Record<string, string>, existing?: ServerProcess): Promise<Target> {
  const server = existing ?? (await startServerProcess(env));
  return {
    kind: 'sqlite',
    base: server.base,
    kill: () => server.kill(),
    stop: () => server.stop(),
    restart: async (extraEnv = {}) => startSqliteTarget(env, await server.restart(extraEnv)),
    integrity: async () => integrityCheck(server.dbPath),
    heldByFirstNode: async () => [],
    deliveryStates: async () => new Map(),
    async dispose() {
      await server.kill().catch(() => undefined);
      server.dispose();
    },
  };
}

interface Cluster {
  dbUrl: string;
  redis: { url: string; stop(): Promise<void> };
  nginx: { url: string; stop(): Promise<void> };
  nodes: ServerProcess[];
}

async function startClusterTarget(env: Record<string, string>): Promise<Target> {
  postgres ??= startPostgres({ maxConnections: 300 });
  const pgServer = (startedPostgres = await postgres);
  const dbUrl = pgServer.createDatabase(`svc_faults_${randomBytes(5).toString('hex')}`);
  const redis = await startRedis();
  const nodeEnv = { ...env, SVC_DB: dbUrl, SVC_REDIS_URL: redis.url, SVC_TRUST_PROXY: '1' };
  // One after the other: the second finds the schema migrated (they would also wait on the advisory lock).
  const first = await startServerProcess(nodeEnv);
  const second = await startServerProcess(nodeEnv);
  // Round robin: the suite's visitors use WebSocket only, so every request may go to either node.
  const nginx = await startNginx({ upstreams: [first, second].map((n) => `127.0.0.1:${n.port}`), balance: 'round-robin' });
  return clusterTarget({ dbUrl, redis, nginx, nodes: [first, second] }, nodeEnv);
}

function clusterTarget(cluster: Cluster, nodeEnv: Record<string, string>): Target {
  const [first] = cluster.nodes;
  return {
    kind: 'cluster',
    base: cluster.nginx.url,
    kill: () => first!.kill(),
    stop: () => first!.stop(),
    async restart(extraEnv = {}) {
      const again = await first!.restart({ ...nodeEnv, ...extraEnv });
      return clusterTarget({ ...cluster, nodes: [again, ...cluster.nodes.slice(1)] }, nodeEnv);
    },
    async integrity() {
      const [orphans] = await query<{ n: number }>(
        cluster.dbUrl,
        'SELECT count(*)::int AS n FROM messages m WHERE NOT EXISTS (SELECT 1 FROM chats c WHERE c.id = m.chat_id)',
      );
      return orphans!.n === 0 ? 'ok' : `${orphans!.n} messages without a chat`;
    },
    async heldByFirstNode() {
      const rows = await query<{ id: number }>(
        cluster.dbUrl,
        "SELECT id::int FROM deliveries WHERE state = 'pending' AND claimed_by LIKE $1",
        [`%:${first!.pid}:%`],
      );
      return rows.map((r) => r.id);
    },
    async deliveryStates(ids) {
      const rows = await query<{ id: number; state: string }>(
        cluster.dbUrl,
        'SELECT id::int, state FROM deliveries WHERE id = ANY($1::bigint[])',
        [ids],
      );
      return new Map(rows.map((r) => [r.id, r.state]));
    },
    async dispose() {
      await cluster.nginx.stop();
      for (const node of cluster.nodes) {
        await node.kill().catch(() => undefined);
        node.dispose();
      }
      await cluster.redis.stop();
    },
  };
}

async function query<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
