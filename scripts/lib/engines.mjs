// Throw-away PostgreSQL and Redis servers from Debian's packages, on a free loopback port in a temp dir, for
// tests, benchmarks and `pnpm cluster`. PostgreSQL refuses to run as root: as root its commands run as the
// `postgres` user the Debian package creates.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const INSTALL_HINT = {
  postgres: 'sudo apt-get install -y postgresql',
  redis: 'sudo apt-get install -y redis-server',
  nginx: 'sudo apt-get install -y nginx',
};

/** An engine that is not installed; its message says what to install. */
export class EngineMissing extends Error {
  constructor(engine, what) {
    super(`${what} was not found. Install it with: ${INSTALL_HINT[engine]}`);
    this.engine = engine;
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const onPath = (cmd) => {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, cmd);
    if (dir && fs.existsSync(file)) return file;
  }
  return undefined;
};

/** The directory of PostgreSQL's server programs (initdb, pg_ctl), the newest installed version first. */
export function postgresBinDir() {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length) return path.join(root, versions[0], 'bin');
  const initdb = onPath('initdb');
  if (initdb && onPath('pg_ctl')) return path.dirname(fs.realpathSync(initdb));
  return undefined;
}

export function redisServerPath() {
  return onPath('redis-server') ?? (fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined);
}

export function nginxPath() {
  return onPath('nginx') ?? ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL program as a user it accepts. */
function asPostgresUser(file, args, options = {}) {
  if (!isRoot()) return execFileSync(file, args, { stdio: 'pipe', ...options });
  return execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe', ...options });
}

async function waitFor(check, what, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const canConnect = (port) =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

/**
 * Starts PostgreSQL in a new temp data dir on a free loopback port, trusting local connections; `settings` are
 * more `name=value` server settings (a benchmark's statement statistics).
 * Answers `{ url(database), port, createDatabase(name), stop() }`; `url()` is the `postgres` database.
 */
export async function startPostgres(options = {}) {
  const bin = postgresBinDir();
  if (!bin) throw new EngineMissing('postgres', 'PostgreSQL (initdb and pg_ctl)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
  const data = path.join(dir, 'data');
  if (isRoot()) fs.chownSync(dir, ...postgresIds());
  asPostgresUser(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions'], {
    env: { ...process.env, LC_ALL: 'C' },
  });
  const port = options.port ?? (await freePort());
  const settings = [
    `-p ${port}`,
    "-c listen_addresses='127.0.0.1'",
    `-c unix_socket_directories='${dir}'`,
    `-c max_connections=${options.maxConnections ?? 200}`,
    '-c shared_buffers=64MB',
    // Throw-away data: durability is what the engine gives by default; only skip the full-page writes noise.
    '-c full_page_writes=off',
  ];
  if (options.fsync === false) settings.push('-c fsync=off', '-c synchronous_commit=off');
  for (const setting of options.settings ?? []) settings.push(`-c ${setting}`);
  const start = () =>
    asPostgresUser(path.join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-o',
      settings.join(' '),
      '-w',
      '-t',
      '30',
      'start',
    ]);
  start();
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      asPostgresUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already gone.
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return {
    port,
    dir,
    url,
    /** Stops the server (fast: connections are cut), waits `downMs`, and starts it again on the same port and data. */
    async restart(downMs = 0) {
      asPostgresUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      start();
    },
    /** Creates an empty database and answers its URL. */
    createDatabase(name) {
      spawnSyncOk(path.join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', `CREATE DATABASE "${name}"`]);
      return url(name);
    },
    stop,
  };
}

function spawnSyncOk(file, args) {
  const result = spawnSync(file, args, { stdio: 'pipe', encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(file)} ${args.join(' ')} failed: ${result.stderr}`);
}

function postgresIds() {
  const out = execFileSync('id', ['postgres'], { encoding: 'utf8' });
  const uid = Number(/uid=(\d+)/.exec(out)[1]);
  const gid = Number(/gid=(\d+)/.exec(out)[1]);
  return [uid, gid];
}

/**
 * Starts Redis on a free loopback port with no persistence. Answers `{ url, port, stop() }`. `detached: true`
 * puts it in its own process group, so a Ctrl-C in the terminal reaches only the caller, which can stop the
 * servers that use Redis before Redis itself (`pnpm cluster`).
 */
export async function startRedis(options = {}) {
  const server = redisServerPath();
  if (!server) throw new EngineMissing('redis', 'Redis (redis-server)');
  const port = options.port ?? (await freePort());
  const child = spawn(server, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
    detached: options.detached === true,
  });
  await waitFor(() => canConnect(port), `redis-server on port ${port}`);
  return {
    port,
    pid: child.pid,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * What a test does when an engine is missing: in CI (CI=true) the run fails; locally it says what to
 * install and the caller skips.
 */
export function engineUnavailable(error) {
  if (!(error instanceof EngineMissing)) throw error;
  if (process.env.CI === 'true' || process.env.CI === '1') throw error;
  console.warn(`\n${error.message}\nSkipping the tests that need it.\n`);
  return error.message;
}
