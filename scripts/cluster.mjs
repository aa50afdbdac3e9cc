// `pnpm cluster [--nodes N]`: several server nodes on this machine behind nginx, sharing a throw-away
// PostgreSQL and Redis, to try what docs/deployment.md describes. Ctrl-C stops everything and
// removes its data. Developer option: CLUSTER_DB=<SQLite file> puts every node on that one file instead of
// PostgreSQL (several processes on one machine share it in WAL mode).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, startPostgres, startRedis } from './lib/engines.mjs';
import { installCommand, missingEngines } from './lib/missing-engines.mjs';
import { startNginx } from './lib/nginx.mjs';
import { serverNodeFlags } from './lib/server-node-flags.mjs';
import { ensureInstalled, pnpm } from './lib/pnpm.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const nodeCount = parseNodes(process.argv.slice(2));
const requestedPort = process.env.CLUSTER_PORT ? clusterPort(process.env.CLUSTER_PORT) : undefined;
const sqliteFile = process.env.CLUSTER_DB ? path.resolve(process.env.CLUSTER_DB) : undefined;

const needed = missingEngines().filter((m) => m.engine !== 'postgres' || !sqliteFile);
if (needed.length) {
  console.error(`pnpm cluster needs ${needed.map((m) => m.name).join(' and ')}, which ${needed.length > 1 ? 'are' : 'is'} not installed.`);
  console.error(`Install with: ${installCommand(needed)}`);
  process.exit(1);
}

if (!fs.existsSync('server/dist/main.js')) {
  ensureInstalled();
  pnpm(['build']);
}

/** What to stop, in the order started; stopped last first (nginx, the nodes, Redis, PostgreSQL). */
const running = [];
/** The server nodes: `{ n, child, port, demoLogin, dead }`. */
const nodes = [];
let stopping = false;

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping the cluster…');
  for (const { name, stop } of running.reverse()) {
    try {
      await stop();
    } catch (err) {
      console.error(`stopping ${name} failed: ${err.message}`);
    }
  }
  console.log('stopped');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

try {
  await start();
} catch (err) {
  console.error(`\npnpm cluster failed: ${err.message}`);
  await shutdown(1);
}

async function start() {
  // The nodes' working directory: whatever they write under a relative path lands here and goes at the end.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cluster-'));
  running.push({ name: 'the temp dir', stop: () => fs.rmSync(work, { recursive: true, force: true }) });
  let db = sqliteFile;
  if (!db) {
    const pg = await startPostgres();
    running.push({ name: 'PostgreSQL', stop: () => pg.stop() });
    db = pg.createDatabase('svc');
  }
  // Its own process group: Ctrl-C reaches this script, which stops Redis after the nodes that use it.
  const redis = await startRedis({ detached: true });
  running.push({ name: 'Redis', stop: () => redis.stop() });

  const port = requestedPort ?? ((await isFree(3000)) ? 3000 : await freePort());
  const publicUrl = `http://127.0.0.1:${port}`;
  const adminToken = crypto.randomBytes(32).toString('base64url');
  const env = (n) => ({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    SVC_DB: db,
    // Every node serves the files any node took in (on PostgreSQL; a SQLite file keeps them beside itself).
    ...(sqliteFile ? {} : { SVC_UPLOADS_DIR: path.join(work, 'uploads') }),
    SVC_REDIS_URL: redis.url,
    // Node 1 seeds the demo data; the others find it in the shared database.
    SVC_DEMO: n === 1 ? '1' : '0',
    SVC_ADMIN_TOKEN: adminToken,
    SVC_PUBLIC_URL: publicUrl,
    SVC_TRUST_PROXY: '1',
  });

  // Node 1 first, so the schema and the demo data are in place before the others start together (PostgreSQL
  // takes an advisory lock for migrations; a SQLite file, the developer option, has nothing of the kind).
  const first = await startNode(1, env(1), work);
  await Promise.all(Array.from({ length: nodeCount - 1 }, (_, i) => startNode(i + 2, env(i + 2), work)));

  const nginx = await startNginx({ port, upstreams: nodes.map((n) => `127.0.0.1:${n.port}`) });
  running.push({ name: 'nginx', stop: () => nginx.stop() });
  watchNginx(nginx);

  const pad = (label) => `  ${label}:`.padEnd(22);
  const lines = [
    `\nsvc-chat cluster: ${nodeCount} node${nodeCount > 1 ? 's' : ''} behind nginx on ${publicUrl}`,
    `${pad('demo shop')}${publicUrl}/demo/`,
    `${pad("agents' console")}${publicUrl}/console/`,
    `${pad('demo login')}${first.demoLogin ?? '(none printed by node1: its database already had agents)'}`,
    `${pad('admin API token')}${adminToken}`,
    ...nodes.map((n) => `${pad(`node${n.n} (direct)`)}http://127.0.0.1:${n.port}`),
    sqliteFile ? `${pad('SQLite file')}${sqliteFile} (CLUSTER_DB, kept)` : `${pad('PostgreSQL')}${db}`,
    `${pad('Redis')}${redis.url}`,
    `${pad('nginx config')}${nginx.config}`,
    `Ctrl-C stops nginx, the nodes, Redis${sqliteFile ? '' : ' and PostgreSQL'}, and removes their temp dirs.`,
  ];
  console.log(lines.join('\n'));
}

/** Starts `node server/dist/main.js` on a port it picks itself; answers once its /healthz answers 200. */
async function startNode(n, env, cwd) {
  const child = spawn(process.execPath, [...serverNodeFlags, path.join(root, 'server/dist/main.js')], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const node = { n, child, port: undefined, demoLogin: undefined, dead: false };
  nodes.push(node);
  running.push({ name: `node${n}`, stop: () => stopChild(child, 20_000) });
  const prefix = `[node${n}] `;
  readline.createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${prefix}${line}\n`));
  const listening = new Promise((resolve) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      process.stdout.write(`${prefix}${line}\n`);
      const port = /^svc-chat listening on .* \(port (\d+)\)$/.exec(line);
      if (port) resolve(Number(port[1]));
      const login = /^\s+demo login:\s+(.+)$/.exec(line);
      if (login) node.demoLogin = login[1];
    });
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(`exit ${code ?? signal}`)));
  void exited.then((how) => {
    node.dead = true;
    if (stopping || node.port === undefined) return;
    const left = nodes.filter((other) => !other.dead).length;
    console.error(`${prefix}exited (${how}); ${left} node${left === 1 ? '' : 's'} left behind nginx`);
    if (left === 0) void shutdown(1);
  });

  const port = await Promise.race([listening, exited]);
  if (typeof port !== 'number') throw new Error(`node${n} ${port} before listening`);
  const deadline = Date.now() + 30_000;
  while (!(await healthy(`http://127.0.0.1:${port}/healthz`))) {
    if (node.dead) throw new Error(`node${n} exited before /healthz answered`);
    if (Date.now() > deadline) throw new Error(`node${n}: /healthz did not answer within 30 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  node.port = port;
  return node;
}

/** nginx ending on its own ends the cluster: nothing reaches the nodes any more. */
function watchNginx(nginx) {
  nginx.child.once('exit', (code) => {
    if (stopping) return;
    console.error(`nginx exited (${code}):\n${nginx.errorLog()}`);
    void shutdown(1);
  });
}

/** SIGTERM, then SIGKILL if it has not exited within `graceMs` (the server shuts down gracefully on SIGTERM). */
async function stopChild(child, graceMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function healthy(url) {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

function isFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function clusterPort(value) {
  const port = Number(value);
  if (Number.isInteger(port) && port >= 1 && port <= 65535) return port;
  console.error(`CLUSTER_PORT must be a port number, not "${value}"`);
  process.exit(2);
}

function parseNodes(args) {
  const usage = 'usage: pnpm cluster [--nodes N]   (N from 1 to 16, default 2)';
  if (args.includes('--help') || args.includes('-h')) {
    console.log(usage);
    process.exit(0);
  }
  const joined = args.filter((a) => a !== '--').flatMap((a) => (a.startsWith('--nodes=') ? ['--nodes', a.slice(8)] : [a]));
  const at = joined.indexOf('--nodes');
  const rest = joined.filter((_, i) => at === -1 || (i !== at && i !== at + 1));
  const value = at === -1 ? 2 : Number(joined[at + 1]);
  if (rest.length || !Number.isInteger(value) || value < 1 || value > 16) {
    console.error(usage);
    process.exit(2);
  }
  return value;
}
