import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_ADMIN_TOKEN, ENV_ADMIN_TOKEN, ENV_BASE_URL, ENV_SERVER_PID, ENV_STOPPING, ENV_TEMP_DIR } from './support/e2e-env.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STARTUP_TIMEOUT_MS = 15_000;

/**
 * Starts the built server once for the whole run, on a free port with its own database in a temp dir,
 * and hands its address and admin token to the tests through process.env (workers inherit it).
 */
export default async function globalSetup(): Promise<void> {
  for (const built of ['server/dist/main.js', 'demo-site/dist/console/index.html']) {
    if (!fs.existsSync(path.join(repoRoot, built))) {
      throw new Error(`${built} is missing: run pnpm build first (the e2e tests drive the built server and console)`);
    }
  }
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-e2e-'));
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SVC_DB: path.join(tempDir, 'db.sqlite'),
      SVC_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      SVC_ALLOW_PRIVATE_URLS: '1',
      SVC_DELIVERY_INTERVAL_MS: '300',
      SVC_LOG_LEVEL: 'warn',
      SVC_DEMO: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const port = await new Promise<number>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => fail(`the server did not say it was listening within ${STARTUP_TIMEOUT_MS} ms`), STARTUP_TIMEOUT_MS);
    function fail(reason: string) {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`e2e server: ${reason}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on \S+ \(port (\d+)\)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
    child.once('exit', (code, signal) => fail(`the server exited early (code ${code}, signal ${signal})`));
  });

  // Keep draining the pipes so the server never blocks on a full one; its warnings still reach the terminal.
  child.stdout.resume();
  child.stderr.pipe(process.stderr);
  child.removeAllListeners('exit');
  child.once('exit', (code, signal) => {
    // Every later test would fail with "connection refused": say why once, where it is easy to find.
    if (!process.env[ENV_STOPPING])
      console.error(`\ne2e server (pid ${child.pid}) exited during the run: code ${code}, signal ${signal}\n`);
  });

  process.env[ENV_BASE_URL] = `http://127.0.0.1:${port}`;
  process.env[ENV_ADMIN_TOKEN] = E2E_ADMIN_TOKEN;
  process.env[ENV_SERVER_PID] = String(child.pid);
  process.env[ENV_TEMP_DIR] = tempDir;
}
