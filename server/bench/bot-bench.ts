// Bot API round trips: a customer message goes in through the Chat API, out to a fast local bot as
// CLIENT_MESSAGE, comes back in-line as BOT_MESSAGE and goes out to the integrator. Compared with a bare
// HTTP forward doing the same two hops in the same run.
// `BENCH_COMPARE_MAIN=<file>`: that server build (e.g. an older commit's bundle) also runs, right after ours, a
// before/after in the same run (compare their CPU per message: the wall times move with the machine's load).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ADMIN_TOKEN, cpuMs, startService, stopProcess } from './bench-process.ts';

const COUNT = Number(process.env.BENCH_BOT_MESSAGES ?? 1000);
const CHATS = 50;

function listen(handler: http.RequestListener): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer({ keepAlive: true }, handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })),
  );
}
const readJson = (req: http.IncomingMessage) =>
  new Promise<any>((resolve) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => resolve(raw ? JSON.parse(raw) : undefined));
  });
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function post(url: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } },
      (res) => {
        let raw = '';
        res.on('data', (c) => (raw += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: raw ? JSON.parse(raw) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** The fast bot: answers every CLIENT_MESSAGE in-line. */
const bot = () =>
  listen(async (req, res) => {
    const event = await readJson(req);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        event: 'BOT_MESSAGE',
        id: `b-${event.id}`,
        chat_id: event.chat_id,
        message: { type: 'TEXT', text: `echo: ${event.message.text}` },
      }),
    );
  });

/** An integrator that counts the replies it receives. */
async function counter(expected: number) {
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  const s = await listen(async (req, res) => {
    await readJson(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
    if (++seen === expected) done();
  });
  return { ...s, all };
}

async function runPairs(send: (i: number) => Promise<unknown>) {
  for (let i = 0; i < COUNT; i += CHATS) await Promise.all(Array.from({ length: Math.min(CHATS, COUNT - i) }, (_, j) => send(i + j)));
}

async function bareForward(): Promise<number> {
  const b = await bot();
  const sink = await counter(COUNT);
  const proxy = await listen(async (req, res) => {
    const inbound = await readJson(req);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
    const answer = await post(b.url, {
      event: 'CLIENT_MESSAGE',
      id: 'x',
      client_id: String(inbound.sender.id),
      chat_id: '1',
      message: { type: 'TEXT', text: inbound.message.text },
    });
    await post(sink.url, {
      sender: { name: 'Bot' },
      recipient: { id: inbound.sender.id },
      message: { type: 'text', id: '1', text: answer.body.message.text },
    });
  });
  const started = performance.now();
  await runPairs((i) => post(proxy.url, { sender: { id: i % CHATS }, message: { type: 'text', text: `m${i}` } }));
  await sink.all;
  const ms = performance.now() - started;
  for (const s of [b.server, sink.server, proxy.server]) s.close();
  return ms;
}

/** The wall time of the run, and the server's CPU time in it (steadier than the wall time on a shared machine). */
async function throughService(dir: string, main?: string): Promise<{ ms: number; cpuMs: number }> {
  const b = await bot();
  const sink = await counter(COUNT);
  const svc = await startService(path.join(dir, `bot-${main ? 'compare' : 'ours'}.sqlite`), {}, main);
  const a = (await post(`${svc.base}/api/v1/agents`, { name: 'B', email: 'b@example.com', password: 'bench password' }, BENCH_ADMIN_TOKEN))
    .body;
  const ch = (
    await post(
      `${svc.base}/api/v1/channels`,
      { kind: 'chat_api', name: 'B', webhook_url: sink.url, chunked: false, agent_ids: [a.id] },
      BENCH_ADMIN_TOKEN,
    )
  ).body;
  const p = (await post(`${svc.base}/api/v1/bot-providers`, { name: 'Fast bot', endpoint: b.url }, BENCH_ADMIN_TOKEN)).body;
  await new Promise<void>((resolve, reject) => {
    const req = http.request(
      `${svc.base}/api/v1/channels/${ch.id}`,
      { method: 'PATCH', headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ bot: { provider_id: p.provider_id, token: 'bench' } }));
  });
  const cpuBefore = cpuMs([svc.child.pid!]);
  const started = performance.now();
  await runPairs(async (i) => {
    for (;;) {
      const answer = await post(ch.endpoint, { sender: { id: i % CHATS }, message: { type: 'text', text: `m${i}` } });
      if (answer.status < 300) return;
      // Turned away under load (nothing stored): sent again, as an integrator does. Anything else ends the run,
      // which would otherwise wait for ever for that message's bot answer.
      if (answer.status !== 429 && answer.status !== 503)
        throw new Error(`client message ${i} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      console.log(`  (client message ${i} answered ${answer.status}: sent again)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  await sink.all;
  const ms = performance.now() - started;
  const cpu = cpuMs([svc.child.pid!]) - cpuBefore;
  await stopProcess(svc);
  b.server.close();
  sink.server.close();
  return { ms, cpuMs: cpu };
}

export async function botBench() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bot-bench-'));
  try {
    const bare = await bareForward();
    const ours = await throughService(dir);
    const compareMain = process.env.BENCH_COMPARE_MAIN;
    const compare = compareMain ? await throughService(dir, compareMain) : undefined;
    console.log(`\nBot API round trips (${COUNT} client messages over ${CHATS} chats, in-line BOT_MESSAGE answers, loopback):`);
    console.log(`  bare HTTP forward:  ${bare.toFixed(0)} ms = ${((COUNT / bare) * 1000).toFixed(0)} round trips/s`);
    const report = (name: string, { ms, cpuMs: cpu }: { ms: number; cpuMs: number }) => {
      console.log(
        `  ${name} (stored, outbox, full sync): ${ms.toFixed(0)} ms = ${((COUNT / ms) * 1000).toFixed(0)} round trips/s, server CPU ${(cpu / COUNT).toFixed(2)} ms per message`,
      );
      console.log(
        `    overhead per message over the bare forward: ${((ms - bare) / COUNT).toFixed(2)} ms (${(ms / bare).toFixed(2)}x the time)`,
      );
    };
    report('svc', ours);
    if (compare) report(`compare ${compareMain}`, compare);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await botBench();
