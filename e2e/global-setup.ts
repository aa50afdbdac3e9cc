import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_ADMIN_TOKEN, ENV_ADMIN_TOKEN, ENV_BASE_URL, ENV_SERVER_PID, ENV_STOPPING, ENV_TEMP_DIR } from './support/e2e-env.ts';
import { startServerProcess } from './support/server-process.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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
  const server = await startServerProcess('e2e server', {
    PORT: '0',
    SVC_DB: path.join(tempDir, 'db.sqlite'),
    SVC_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
    SVC_ALLOW_PRIVATE_URLS: '1',
    SVC_DELIVERY_INTERVAL_MS: '300',
  });
  void server.exited.then(({ code, signal }) => {
    // Every later test would fail with "connection refused": say why once, where it is easy to find.
    if (!process.env[ENV_STOPPING])
      console.error(`\ne2e server (pid ${server.pid}) exited during the run: code ${code}, signal ${signal}\n`);
  });

  process.env[ENV_BASE_URL] = server.url;
  process.env[ENV_ADMIN_TOKEN] = E2E_ADMIN_TOKEN;
  process.env[ENV_SERVER_PID] = String(server.pid);
  process.env[ENV_TEMP_DIR] = tempDir;
}
