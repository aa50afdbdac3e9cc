// `pnpm start` / `npm start`: install, build, and start the server with demo data beside the demo
// integrator, printing every URL.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { ensureInstalled, pnpm } from './lib/pnpm.mjs';

ensureInstalled();
pnpm(['build']);

const env = { SVC_DEMO: '1', SVC_ALLOW_PRIVATE_URLS: '1', ...process.env };
const children = [];
const integratorEntry = 'demo-site/dist/integrator/server.js';
if (fs.existsSync(integratorEntry)) {
  env.SVC_DEMO_INTEGRATOR_URL ??= `http://127.0.0.1:${env.DEMO_INTEGRATOR_PORT ?? 3001}/integrator`;
  children.push(spawn(process.execPath, [integratorEntry], { stdio: 'inherit', env }));
}
children.push(spawn(process.execPath, ['server/dist/main.js'], { stdio: 'inherit', env }));

const stop = (signal) => children.forEach((c) => c.kill(signal));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
let running = children.length;
for (const child of children) {
  child.on('exit', (code) => {
    running -= 1;
    if (code && code !== 0) stop('SIGTERM');
    if (running === 0) process.exit(code ?? 0);
  });
}
