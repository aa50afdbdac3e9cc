// `pnpm start` / `npm start`: install, build, and start the server with demo data beside the sample Chat API
// integrator and the sample FAQ bot, printing every URL.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureInstalled, pnpm } from './lib/pnpm.mjs';
import { serverNodeFlags } from './lib/server-node-flags.mjs';

ensureInstalled();
pnpm(['build']);

/** The demo's admin token, kept beside the demo database so the sample integrator can find its channel. */
function demoAdminToken() {
  const file = path.join(path.dirname(process.env.SVC_DB ?? './data/svc.sqlite'), 'demo-admin-token');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  const token = crypto.randomBytes(32).toString('base64url');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

const port = process.env.PORT ?? '3000';
const integratorPort = process.env.DEMO_INTEGRATOR_PORT ?? '3001';
const botPort = process.env.DEMO_BOT_PORT ?? '3002';
const adminToken = process.env.SVC_ADMIN_TOKEN ?? demoAdminToken();
const env = {
  SVC_DEMO: '1',
  SVC_ALLOW_PRIVATE_URLS: '1',
  SVC_DEMO_INTEGRATOR_URL: `http://127.0.0.1:${integratorPort}/integrator`,
  SVC_DEMO_BOT_URL: `http://127.0.0.1:${botPort}/bot`,
  ...process.env,
  PORT: port,
  SVC_ADMIN_TOKEN: adminToken,
  SVC_URL: `http://127.0.0.1:${port}`,
  DEMO_INTEGRATOR_PORT: integratorPort,
  DEMO_BOT_PORT: botPort,
};

const children = [
  spawn(process.execPath, [...serverNodeFlags, 'server/dist/main.js'], { stdio: 'inherit', env }),
  spawn(process.execPath, ['demo-site/dist/integrator/server.js'], { stdio: 'inherit', env }),
  spawn(process.execPath, ['demo-site/dist/bot/server.js'], { stdio: 'inherit', env }),
];
console.log(`admin API token: ${adminToken} (kept in the data folder for the demo)`);

const stop = (signal) => children.forEach((c) => c.kill(signal));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
let running = children.length;
for (const child of children) {
  child.on('exit', (code) => {
    running -= 1;
    if (code) stop('SIGTERM');
    if (running === 0) process.exit(code ?? 0);
  });
}
