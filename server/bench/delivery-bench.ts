// Chat API deliveries: agent messages posted through the agent API to chats of a Chat API channel, each
// delivered signed to a fast integrator on 127.0.0.1. Compared with a bare Node http client posting the same
// signed bodies to the same kind of receiver in the same run, with the same ordering (one request at a time
// per chat, the chats side by side). Runs on each store of BENCH_STORES.
//
// Two lines per store: end to end (the agent API storing the messages while the outbox sends them), and the
// outbox alone: the integrator holds the first requests it gets unanswered until all the messages are stored
// (the outbox sends at most PER_CHANNEL_IN_FLIGHT of one channel at once, so the rest wait stored), then the
// clock starts and it answers everything.
//
// The agent messages are posted with the same Node http client as the bare client's (fetch cost this process
// 0.6-0.8 ms of CPU per message, more than the server spent storing it, on the same two cores). The storing line
// gives the CPU of the outbox-alone run while the agent API stored (the integrator holding what was sent).
// Both sides are measured warm, as a running service is: before the clock starts the bench process sends
// BENCH_WARMUP bodies (default: as many as it measures) the bare way, and the service stores and delivers as many
// agent messages through a channel of its own (V8 otherwise compiles our code while the clock runs: a cold service
// spent a third of its CPU in the JIT).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signatureHeaders } from '../src/lib/webhook-signature.ts';
import { BENCH_ADMIN_TOKEN, cpuMs, json, median, startService, stopProcess } from './bench-process.ts';
import { benchStores } from './bench-stores.ts';

const COUNT = Number(process.env.BENCH_DELIVERIES ?? 1000);
const CHATS = 50;
const WARMUP = Number(process.env.BENCH_WARMUP ?? COUNT);

/** The integrator: answers every request `{"result":"ok"}` (those that arrive before `held` resolves, once it
 * has) and resolves once it has answered `expected`. */
function integrator(expected: number, held?: Promise<void>): Promise<{ url: string; all: Promise<void>; close: () => void }> {
  let seen = 0;
  let done!: () => void;
  const all = new Promise<void>((r) => (done = r));
  let holding = held !== undefined;
  void held?.then(() => (holding = false));
  const answer = (res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
    if (++seen === expected) done();
  };
  const server = http.createServer({ keepAlive: true }, (req, res) => {
    req.resume();
    req.on('end', () => (holding ? void held!.then(() => answer(res)) : answer(res)));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, all, close: () => server.close() }),
    ),
  );
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** An agent's message through the agent API, which must answer 201. */
async function postAgentMessage(base: string, chatId: number, text: string, token: string): Promise<void> {
  const status = await post(`${base}/api/v1/chats/${chatId}/messages`, JSON.stringify({ type: 'text', text }), {
    authorization: `Bearer ${token}`,
  });
  if (status !== 201) throw new Error(`agent message into chat ${chatId}: ${status}`);
}

async function bareClient(count = COUNT): Promise<number> {
  const receiver = await integrator(count);
  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const lane = async (chat: number) => {
    for (let i = chat; i < count; i += CHATS) {
      const id = `evt_bench_${i}`;
      const body = JSON.stringify({
        sender: { name: 'Bench' },
        recipient: { id: String(chat) },
        message: { type: 'text', id: String(i), text: `m${i}` },
      });
      await post(`${receiver.url}/ch_bench`, body, signatureHeaders(secret, id, body));
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CHATS }, (_, c) => lane(c)));
  await receiver.all;
  const ms = performance.now() - started;
  receiver.close();
  return ms;
}

/** `outboxOnly`: the clock starts once every message is stored, the integrator holding what came before. */
async function throughService(
  database: string,
  enginePids: () => number[],
  outboxOnly = false,
  resetStats = () => {},
): Promise<{ ms: number; postedMs: number; cpuMs: number; storing: { nodeCpuMs: number; cpuMs: number } }> {
  let release!: () => void;
  const held = outboxOnly ? new Promise<void>((r) => (release = r)) : undefined;
  const receiver = await integrator(COUNT, held);
  // An attempt held that long must not time out (the timeout is the retry interval).
  const svc = await startService(database, outboxOnly ? { SVC_DELIVERY_INTERVAL_MS: '600000' } : {});
  try {
    const agentRow = await json(
      'POST',
      `${svc.base}/api/v1/agents`,
      { name: 'Bench', email: 'bench@example.com', password: 'bench password' },
      BENCH_ADMIN_TOKEN,
    );
    const chatsOf = async (name: string, webhookUrl: string) => {
      const channel = await json(
        'POST',
        `${svc.base}/api/v1/channels`,
        { kind: 'chat_api', name, webhook_url: webhookUrl, chunked: false, agent_ids: [agentRow.id] },
        BENCH_ADMIN_TOKEN,
      );
      const ids: number[] = [];
      for (let i = 0; i < CHATS; i++) {
        ids.push((await json('POST', channel.endpoint, { sender: { id: i }, message: { type: 'text', text: 'hi' } })).chat_id);
      }
      return ids;
    };
    if (WARMUP > 0) {
      const warmReceiver = await integrator(WARMUP);
      const warmChats = await chatsOf('Warm-up', warmReceiver.url);
      for (let i = 0; i < WARMUP; i += CHATS) {
        await Promise.all(warmChats.map((id, j) => postAgentMessage(svc.base, id, `w${i + j}`, agentRow.token)));
      }
      await warmReceiver.all;
      warmReceiver.close();
    }
    const chatIds = await chatsOf('B', receiver.url);
    const pids = () => [svc.child.pid!, ...enginePids()];
    let cpuBefore = cpuMs(pids());
    const nodeCpuBefore = cpuMs([svc.child.pid!]);
    let started = performance.now();
    // Each chat's agent posts its next message once the last one is answered, the chats side by side: the bare
    // client's ordering.
    const lane = async (id: number, j: number) => {
      for (let i = j; i < COUNT; i += CHATS) await postAgentMessage(svc.base, id, `m${i}`, agentRow.token);
    };
    await Promise.all(chatIds.map(lane));
    const postedMs = performance.now() - started;
    const storing = { nodeCpuMs: cpuMs([svc.child.pid!]) - nodeCpuBefore, cpuMs: cpuMs(pids()) - cpuBefore };
    if (outboxOnly) {
      resetStats();
      cpuBefore = cpuMs(pids());
      started = performance.now();
      release();
    }
    await receiver.all;
    return { ms: performance.now() - started, postedMs, cpuMs: cpuMs(pids()) - cpuBefore, storing };
  } finally {
    await stopProcess(svc);
    receiver.close();
  }
}

export async function deliveryBench() {
  const stores = await benchStores();
  try {
    const rate = (ms: number) => ((COUNT / ms) * 1000).toFixed(0);
    console.log(
      `\nDeliveries to a fast integrator (${COUNT} agent messages over ${CHATS} Chat API chats, integrator on loopback; ` +
        `both sides warmed by ${WARMUP} first):`,
    );
    if (WARMUP > 0) await bareClient(WARMUP);
    for (const store of stores.names) {
      // The bare client before, between and after the service's runs: each ratio is of its median.
      const bares = [await bareClient()];
      const { ms: svc, postedMs, cpuMs: cpu } = await throughService(stores.database(store, 'deliveries'), () => stores.enginePids(store));
      bares.push(await bareClient());
      const outbox = await throughService(
        stores.database(store, 'outbox'),
        () => stores.enginePids(store),
        true,
        () => stores.resetStats(),
      );
      bares.push(await bareClient());
      const bare = median(bares);
      console.log(`  ${store}:`);
      console.log(
        `    bare http client, same signed bodies:  ${bare.toFixed(0)} ms = ${rate(bare)} deliveries/s ` +
          `(median of ${bares.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
      );
      console.log(
        `    svc (agent API, stored, outbox, signed, full sync): ${svc.toFixed(0)} ms = ${rate(svc)} deliveries/s, ` +
          `cpu ${(cpu / COUNT).toFixed(2)} ms/message (node + engine); the agent API had answered all after ${postedMs.toFixed(0)} ms`,
      );
      console.log(
        `    ${(bare / svc).toFixed(2)}x the bare client's rate (target >= 0.5x) ${bare / svc >= 0.5 ? 'OK' : 'BELOW TARGET'}; ` +
          `overhead per message ${((svc - bare) / COUNT).toFixed(2)} ms`,
      );
      console.log(
        `    outbox alone (all ${COUNT} stored first, by the agent API in ${outbox.postedMs.toFixed(0)} ms = ${rate(outbox.postedMs)} messages/s): ` +
          `${outbox.ms.toFixed(0)} ms = ${rate(outbox.ms)} deliveries/s, cpu ${(outbox.cpuMs / COUNT).toFixed(2)} ms/delivery, ` +
          `${(bare / outbox.ms).toFixed(2)}x the bare client's rate`,
      );
      console.log(
        `    storing (outbox alone, integrator holding): cpu ${(outbox.storing.cpuMs / COUNT).toFixed(3)} ms/message ` +
          `(node + engine; node ${(outbox.storing.nodeCpuMs / COUNT).toFixed(3)})`,
      );
    }
  } finally {
    stores.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await deliveryBench();
