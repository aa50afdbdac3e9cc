import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const FAULTS_ADMIN_TOKEN = 'faults-admin-token-0123456789';

/** Short timeouts for the scenarios that kill a node: they keep the delivery lease short, so a delivery in
 * flight at the kill is retried once it ends (twice the longest timeout plus 10 s, docs/operators.md#shutdown). */
export const SHORT_TIMEOUTS = {
  SVC_DELIVERY_ATTEMPTS: '100',
  SVC_DELIVERY_INTERVAL_MS: '300',
  SVC_BOT_TIMEOUT_MS: '300',
  SVC_WEBHOOK_TIMEOUT_MS: '300',
};
export const SHORT_LEASE_MS = 300 * 2 + 10_000;
const builtServer = path.join(repoRoot, 'server/dist/main.js');

// Whatever ends the suite (a scenario over its time limit included), no server is left running.
const running = new Set<ChildProcess>();
process.on('exit', () => running.forEach((child) => child.kill('SIGKILL')));

export interface ServerProcess {
  base: string;
  port: number;
  pid: number;
  dbPath: string;
  /** SIGKILL: no shutdown code runs. Resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM: resolves with the exit code and how long the shutdown took. */
  stop(): Promise<{ code: number | null; ms: number }>;
  /** A new process on the same database file and port. */
  restart(extraEnv?: Record<string, string>): Promise<ServerProcess>;
  /** Removes the temp dir (after a stop or kill). */
  dispose(): void;
}

/**
 * The built server (`server/dist/main.js`) as a child process on 127.0.0.1 with its own temp SQLite file:
 * a real process, so that SIGKILL really skips every shutdown path.
 */
export async function startServerProcess(env: Record<string, string> = {}, dir?: string, port = 0): Promise<ServerProcess> {
  if (!fs.existsSync(builtServer)) throw new Error('server/dist/main.js is missing: run `cd server && node build.mjs` first');
  const tempDir = dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-faults-'));
  const dbPath = path.join(tempDir, 'svc.sqlite');
  const fullEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SVC_DB: dbPath,
    SVC_ADMIN_TOKEN: FAULTS_ADMIN_TOKEN,
    SVC_ALLOW_PRIVATE_URLS: '1',
    SVC_RATE_LIMITS: 'off',
    SVC_GEOIP: 'off',
    SVC_LOG_LEVEL: process.env.FAULTS_SERVER_LOG ? 'info' : 'error',
    SVC_STATIC_DIR: path.join(tempDir, 'no-static'),
    ...env,
  };
  const child = spawn(process.execPath, [builtServer], { cwd: repoRoot, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (running.delete(child), resolve(code))));
  // FAULTS_SERVER_LOG=<file> keeps the server's log lines (set SVC_LOG_LEVEL=info in the environment for requests).
  if (process.env.FAULTS_SERVER_LOG) child.stdout!.pipe(fs.createWriteStream(process.env.FAULTS_SERVER_LOG, { flags: 'a' }));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const actualPort = await listeningPort(child, () => stderr);
  return {
    base: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    pid: child.pid!,
    dbPath,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      const started = Date.now();
      child.kill('SIGTERM');
      const code = await exited;
      return { code, ms: Date.now() - started };
    },
    restart: (extraEnv = {}) => startServerProcess({ ...env, ...extraEnv }, tempDir, actualPort),
    dispose: () => fs.rmSync(tempDir, { recursive: true, force: true }),
  };
}

function listeningPort(child: ChildProcess, stderr: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start within 15 s: ${out}${stderr()}`)), 15_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /\(port (\d+)\)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening: ${out}${stderr()}`));
    });
  });
}
