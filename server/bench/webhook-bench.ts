// Server webhook deliveries: offline messages posted through the public widget API, each written with its
// offline_message webhook in the outbox, delivered signed to a fast owner's server on 127.0.0.1. Compared
// with a bare Node http client posting the same signed bodies to the same server in the same run, with the
// same ordering (one request at a time per channel, the channels side by side).
//
// Two lines per store, as in delivery-bench.ts: end to end (the public API storing the offline messages while the
// outbox sends their webhooks), and the outbox alone: the owner's server holds the first webhooks it gets
// unanswered until every message is stored, then the clock starts and it answers everything.
//
// The storing line, as in delivery-bench.ts, gives the CPU of the outbox-alone run while the public API stored (the
// owner's server holding what was sent): what an offline message costs apart from its sending.
//
// Both sides are measured warm, as in delivery-bench.ts: BENCH_WARMUP bodies (default: as many as it measures) the
// bare way first, and as many offline messages through channels of the service's own before the clock starts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signatureHeaders } from '../src/lib/webhook-signature.ts';
import { BENCH_ADMIN_TOKEN, cpuMs, median, startService, stopProcess } from './bench-process.ts';
import { benchStores } from './bench-stores.ts';

const COUNT = Number(process.env.BENCH_WEBHOOKS ?? 1000);
/** offline_message webhooks of one channel leave one at a time, in order: parallelism comes from channels. */
const CHANNELS = 8;
const VISITORS = 50;
const TIME_LIMIT_MS = 120_000;
const WARMUP = Number(process.env.BENCH_WARMUP ?? COUNT);

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let raw = '';
      res.on('data', (c) => (raw += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: raw }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
async function postJson(url: string, body: unknown, token?: string) {
  const res = await post(url, JSON.stringify(body), token ? { authorization: `Bearer ${token}` } : {});
  if (res.status >= 300) throw new Error(`POST ${url}: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as any;
}

/** The owner's server: answers every webhook `{"result":"ok"}` (those that arrive before `held` resolves, once it
 * has) and resolves once it has answered `expected`. */
function ownerServer(
  expected: number,
  held?: Promise<void>,
): Promise<{ url: string; all: Promise<void>; seen: () => number; close: () => void }> {
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
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        all,
        seen: () => seen,
        close: () => server.close(),
      }),
    ),
  );
}

const within = <T>(work: Promise<T>, what: string) =>
  Promise.race([
    work,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: not done within ${TIME_LIMIT_MS} ms`)), TIME_LIMIT_MS).unref(),
    ),
  ]);

/** A body shaped like the service's offline_message, signed with the channel's secret. */
function signedBody(i: number, secret: string) {
  const id = `evt_bench_${i}`;
  const body = JSON.stringify({
    event_name: 'offline_message',
    event_id: id,
    widget_id: `bench${i % CHANNELS}`,
    visitor: { name: 'Bench', email: 'bench@example.com', number: '', description: '', chats_count: 0 },
    session: { geoip: {}, utm: '', utm_json: {}, ip_addr: '', user_agent: '' },
    page: { url: '' },
    offline_message_id: String(i),
    message: `offline message ${i}`,
  });
  return { body, headers: signatureHeaders(secret, id, body) };
}

async function bareClient(count = COUNT): Promise<number> {
  const owner = await ownerServer(count);
  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const lane = async (channel: number) => {
    for (let i = channel; i < count; i += CHANNELS) {
      const { body, headers } = signedBody(i, secret);
      await post(owner.url, body, headers);
    }
  };
  const started = performance.now();
  await within(Promise.all(Array.from({ length: CHANNELS }, (_, c) => lane(c))), 'bare client');
  await owner.all;
  const ms = performance.now() - started;
  owner.close();
  return ms;
}

/** `outboxOnly`: the clock starts once every message is stored, the owner's server holding what came before. */
async function throughService(
  database: string,
  enginePids: () => number[],
  outboxOnly = false,
  resetStats = () => {},
): Promise<{
  ms: number;
  cpuMs: number;
  nodeCpuMs: number;
  intakeMs: number;
  deliveredAtIntake: number;
  storing: { nodeCpuMs: number; cpuMs: number };
}> {
  let release!: () => void;
  const held = outboxOnly ? new Promise<void>((r) => (release = r)) : undefined;
  const owner = await ownerServer(COUNT, held);
  // A webhook held that long must not time out: at the 3 s default, an intake slower than that (a loaded machine)
  // had the held webhooks retried 10 s later, and the outbox-alone run measured the wait (10-14 s instead of ~1 s).
  const svc = await startService(database, outboxOnly ? { SVC_DELIVERY_INTERVAL_MS: '600000', SVC_WEBHOOK_TIMEOUT_MS: '600000' } : {});
  try {
    const channelsTo = async (name: string, webhookUrl: string) => {
      const created: { public_id: string }[] = [];
      for (let c = 0; c < CHANNELS; c++) {
        const body = { kind: 'widget', name: `${name} ${c}`, agent_ids: [], webhook_url: webhookUrl, webhook_events: ['offline_message'] };
        created.push(await postJson(`${svc.base}/api/v1/channels`, body, BENCH_ADMIN_TOKEN));
      }
      return created;
    };
    // 50 visitors side by side, each sending its next offline message once the last one is answered.
    const offlineMessages = async (to: { public_id: string }[], count: number) => {
      const visitor = async (j: number) => {
        for (let i = j; i < count; i += VISITORS) {
          await postJson(`${svc.base}/widget-api/${to[i % CHANNELS]!.public_id}/offline-messages`, {
            name: 'Bench',
            email: 'bench@example.com',
            message: `offline message ${i}`,
          });
        }
      };
      await Promise.all(Array.from({ length: VISITORS }, (_, j) => visitor(j)));
    };
    if (WARMUP > 0) {
      const warmOwner = await ownerServer(WARMUP);
      await within(
        offlineMessages(await channelsTo('Warm-up', warmOwner.url), WARMUP).then(() => warmOwner.all),
        'svc warm-up',
      );
      warmOwner.close();
    }
    const channels = await channelsTo('Bench', owner.url);
    const pids = () => [svc.child.pid!, ...enginePids()];
    let cpuBefore = cpuMs(pids());
    let nodeCpuBefore = cpuMs([svc.child.pid!]);
    let started = performance.now();
    let intakeMs = 0;
    let deliveredAtIntake = 0;
    let storing = { nodeCpuMs: NaN, cpuMs: NaN };
    const submit = async () => {
      await offlineMessages(channels, COUNT);
      intakeMs = performance.now() - started;
      deliveredAtIntake = owner.seen();
      if (outboxOnly) {
        storing = { nodeCpuMs: cpuMs([svc.child.pid!]) - nodeCpuBefore, cpuMs: cpuMs(pids()) - cpuBefore };
        resetStats();
        cpuBefore = cpuMs(pids());
        nodeCpuBefore = cpuMs([svc.child.pid!]);
        started = performance.now();
        release();
      }
      await owner.all;
    };
    await within(submit(), 'svc webhooks');
    return {
      ms: performance.now() - started,
      cpuMs: cpuMs(pids()) - cpuBefore,
      nodeCpuMs: cpuMs([svc.child.pid!]) - nodeCpuBefore,
      intakeMs,
      deliveredAtIntake,
      storing,
    };
  } finally {
    await stopProcess(svc);
    owner.close();
  }
}

export async function webhookBench() {
  const stores = await benchStores();
  try {
    const rate = (ms: number) => ((COUNT / ms) * 1000).toFixed(0);
    console.log(
      `\nServer webhook deliveries (${COUNT} offline_message events over ${CHANNELS} widget channels, owner on loopback; ` +
        `both sides warmed by ${WARMUP} first):`,
    );
    if (WARMUP > 0) await bareClient(WARMUP);
    for (const store of stores.names) {
      // The bare client again beside each store, before, between and after the service's runs, so each ratio is
      // of the same moment of a shared machine: of the median of the three.
      const bares = [await bareClient()];
      const {
        ms: svc,
        cpuMs: cpu,
        nodeCpuMs,
        intakeMs,
        deliveredAtIntake,
      } = await throughService(stores.database(store, 'webhooks'), () => stores.enginePids(store));
      bares.push(await bareClient());
      const outbox = await throughService(
        stores.database(store, 'webhook-outbox'),
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
        `    svc (public API, stored, outbox, signed, full sync): ${svc.toFixed(0)} ms = ${rate(svc)} deliveries/s, ` +
          `cpu ${(cpu / COUNT).toFixed(2)} ms/event (node + engine; node ${(nodeCpuMs / COUNT).toFixed(2)})`,
      );
      // Which side is behind: the intake (every 201 answered) or the outbox (webhooks still to send then).
      console.log(`    intake: all ${COUNT} accepted after ${intakeMs.toFixed(0)} ms, ${deliveredAtIntake} webhooks delivered by then`);
      console.log(
        `    ${(bare / svc).toFixed(2)}x the bare client's rate (target >= 0.5x) ${bare / svc >= 0.5 ? 'OK' : 'BELOW TARGET'}; ` +
          `overhead per event ${((svc - bare) / COUNT).toFixed(2)} ms`,
      );
      console.log(
        `    outbox alone (all ${COUNT} stored first, by the public API in ${outbox.intakeMs.toFixed(0)} ms = ${rate(outbox.intakeMs)} messages/s): ` +
          `${outbox.ms.toFixed(0)} ms = ${rate(outbox.ms)} webhooks/s, cpu ${(outbox.cpuMs / COUNT).toFixed(2)} ms/webhook, ` +
          `${(bare / outbox.ms).toFixed(2)}x the bare client's rate`,
      );
      console.log(
        `    storing (outbox alone, owner holding): cpu ${(outbox.storing.cpuMs / COUNT).toFixed(3)} ms/message ` +
          `(node + engine; node ${(outbox.storing.nodeCpuMs / COUNT).toFixed(3)})`,
      );
    }
  } finally {
    stores.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await webhookBench();
