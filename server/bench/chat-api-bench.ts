// `pnpm bench`: Chat API intake against a bare Koa + better-sqlite3 handler measured in the same run, at
// both `synchronous` settings, then agent-message deliveries per second to a fast integrator.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BENCH_ADMIN_TOKEN, intakeLoad, json, root, startProcess, startService, stopProcess } from './bench-process.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;

const load = (url: string, pid: number) => intakeLoad([url], seconds, connections, () => [pid]);

/** The agent whose chats a benchmark's channel sends (created through the admin API). */
const benchAgent = (base: string) =>
  json('POST', `${base}/api/v1/agents`, { name: 'Bench', email: 'bench@example.com', password: 'bench password' }, BENCH_ADMIN_TOKEN);

async function intake(sync: 'full' | 'normal', dir: string) {
  const bare = await startProcess(['server/bench/bare-server.mjs'], { BENCH_DB: path.join(dir, `bare-${sync}.sqlite`), BENCH_SYNC: sync });
  const bareResult = await load(`${bare.base}/messages`, bare.child.pid!);
  await stopProcess(bare);

  const svc = await startService(path.join(dir, `svc-${sync}.sqlite`), { SVC_DB_SYNC: sync });
  const agent = await benchAgent(svc.base);
  const channel = await json(
    'POST',
    `${svc.base}/api/v1/channels`,
    { kind: 'chat_api', name: 'Bench', webhook_url: 'http://127.0.0.1:9/none', chunked: false, agent_ids: [agent.id] },
    BENCH_ADMIN_TOKEN,
  );
  const svcResult = await load(channel.endpoint, svc.child.pid!);
  await stopProcess(svc);
  return { bare: bareResult, svc: svcResult };
}

async function deliveries(dir: string, count = 1000, chats = 50) {
  let received = 0;
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  const integrator = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
      if (++received === count) done();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, '127.0.0.1', resolve));
  const svc = await startService(path.join(dir, 'svc-deliveries.sqlite'));
  const agent = await benchAgent(svc.base);
  const url = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}`;
  const channel = await json(
    'POST',
    `${svc.base}/api/v1/channels`,
    { kind: 'chat_api', name: 'B', webhook_url: url, chunked: false, agent_ids: [agent.id] },
    BENCH_ADMIN_TOKEN,
  );
  const chatIds: number[] = [];
  for (let i = 0; i < chats; i++) {
    chatIds.push((await json('POST', channel.endpoint, { sender: { id: i }, message: { type: 'text', text: 'hi' } })).chat_id);
  }
  const started = performance.now();
  for (let i = 0; i < count; i += chats) {
    await Promise.all(
      chatIds.map((id, j) => json('POST', `${svc.base}/api/v1/chats/${id}/messages`, { type: 'text', text: `m${i + j}` }, agent.token)),
    );
  }
  await all;
  const ms = performance.now() - started;
  await stopProcess(svc);
  integrator.close();
  return { count, ms, perSecond: (count / ms) * 1000 };
}

async function main() {
  if (!fs.existsSync(path.join(root, 'server/dist/main.js'))) throw new Error('server/dist/main.js is missing: run pnpm build first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  try {
    console.log(`Chat API intake: ${connections} connections, ${seconds} s per run, loopback, ${os.cpus().length} cores\n`);
    console.log('sync    handler            req/s     p50 ms   p99 ms   errors   cpu ms/req');
    const targets = { full: 1.0, normal: 0.6 };
    const verdicts: string[] = [];
    for (const sync of ['full', 'normal'] as const) {
      const { bare, svc } = await intake(sync, dir);
      const row = (name: string, r: typeof bare) =>
        console.log(
          `${sync.padEnd(8)}${name.padEnd(19)}${r.rps.toFixed(0).padStart(6)}   ${String(r.p50).padStart(6)}   ${String(r.p99).padStart(6)}   ${String(r.errors).padStart(6)}   ${r.cpuMsPerRequest.toFixed(2).padStart(6)}`,
        );
      row('bare koa+sqlite', bare);
      row('svc chat api', svc);
      const ratio = svc.rps / bare.rps;
      verdicts.push(
        `${sync}: throughput ${ratio.toFixed(2)}x the bare handler (target >= ${targets[sync]}x) ${ratio >= targets[sync] ? 'OK' : 'BELOW TARGET'}; ` +
          `CPU per request ${(svc.cpuMsPerRequest / bare.cpuMsPerRequest).toFixed(2)}x the bare handler's; ` +
          `p99 ${svc.p99} ms vs ${bare.p99} ms ${svc.p99 <= bare.p99 ? 'OK' : 'WORSE'}`,
      );
    }
    console.log(`\n${verdicts.join('\n')}`);
    const d = await deliveries(dir);
    console.log(
      `\nDeliveries to a fast integrator: ${d.count} agent messages over 50 chats in ${d.ms.toFixed(0)} ms = ${d.perSecond.toFixed(0)}/s`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
