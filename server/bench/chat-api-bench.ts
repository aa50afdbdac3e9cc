// `pnpm bench`: Chat API intake against a bare Koa + better-sqlite3 handler measured in the same run, at
// both `synchronous` settings (`BENCH_SYNCS=normal` for one), then agent-message deliveries per second to a
// fast integrator (`BENCH_DELIVERIES=0` skips them).
// `BENCH_COMPARE_MAIN=<file>`: the intake also runs that server build (e.g. an older commit's bundle) right after
// ours, a before/after in the same run.
// `BENCH_RATE=<req/s>`: the intake load is offered at that rate (open-loop) instead of as fast as it is answered:
// every build then gets the same traffic and the same batches, and its CPU per request is what to compare (the
// rate must stay below what every handler sustains: check req/s). Closed-loop, CPU per request falls with
// throughput (larger group commits), so a build that gets more of a loaded machine looks cheaper.
// `BENCH_OVERLOAD=1`: instead, overload (issue 16) on each store of `BENCH_STORES`: the sustainable rate of one
// node, then four times that rate offered open-loop, at each limit of `BENCH_OVERLOAD_LIMITS` (SVC_MAX_IN_FLIGHT),
// over `BENCH_OVERLOAD_CONNECTIONS` (256) connections; the node's memory is printed for both (RSS, V8's heap and its
// young generation, external memory).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BENCH_ADMIN_TOKEN, intakeLoad, json, root, startProcess, startService, stopProcess } from './bench-process.ts';
import { benchStores, openBenchDatabase } from './bench-stores.ts';
import { clientCeiling, overloadLoad, watchRss, type NodeGauges } from './overload-load.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const rate = Number(process.env.BENCH_RATE ?? 0);

const load = (url: string, pid: number, offered = rate) => intakeLoad([url], seconds, connections, () => [pid], offered);

/** The agent whose chats a benchmark's channel sends (created through the admin API). */
const benchAgent = (base: string) =>
  json('POST', `${base}/api/v1/agents`, { name: 'Bench', email: 'bench@example.com', password: 'bench password' }, BENCH_ADMIN_TOKEN);

/** The Chat API endpoint of a new channel of a started service. */
async function benchEndpoint(base: string): Promise<string> {
  const agent = await benchAgent(base);
  const channel = await json(
    'POST',
    `${base}/api/v1/channels`,
    { kind: 'chat_api', name: 'Bench', webhook_url: 'http://127.0.0.1:9/none', chunked: false, agent_ids: [agent.id] },
    BENCH_ADMIN_TOKEN,
  );
  return channel.endpoint;
}

async function intake(sync: 'full' | 'normal', dir: string) {
  const bare = await startProcess(['server/bench/bare-server.mjs'], { BENCH_DB: path.join(dir, `bare-${sync}.sqlite`), BENCH_SYNC: sync });
  const bareResult = await load(`${bare.base}/messages`, bare.child.pid!);
  await stopProcess(bare);

  const measure = async (name: string, main?: string) => {
    const svc = await startService(path.join(dir, `svc-${sync}-${name}.sqlite`), { SVC_DB_SYNC: sync }, main);
    const result = await load(await benchEndpoint(svc.base), svc.child.pid!);
    await stopProcess(svc);
    return result;
  };
  const svcResult = await measure('ours');
  const compare = process.env.BENCH_COMPARE_MAIN ? await measure('compare', process.env.BENCH_COMPARE_MAIN) : undefined;
  return { bare: bareResult, svc: svcResult, compare };
}

/**
 * The node's own p99 for the Chat API messages it accepted, from its request-duration histogram (a bucket's upper
 * bound, ms): the time inside Koa, without the client's lag or the kernel's queues. The route with the most 2xx
 * POSTs is the Chat API's; the set-up's few admin requests are in other routes.
 */
async function nodeAcceptedP99Ms(base: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` } });
  const routes = new Map<string, Map<number, number>>();
  for (const [, labels, value] of (await res.text()).matchAll(/^svc_http_request_duration_seconds_bucket\{([^}]*)\} (\S+)$/gm)) {
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(labels!)?.[1] ?? '';
    if (label('method') !== 'POST' || !label('status').startsWith('2')) continue;
    const buckets = routes.get(label('route')) ?? new Map<number, number>();
    const le = label('le') === '+Inf' ? Infinity : Number(label('le'));
    buckets.set(le, (buckets.get(le) ?? 0) + Number(value));
    routes.set(label('route'), buckets);
  }
  const busiest = [...routes.values()].sort((a, b) => (b.get(Infinity) ?? 0) - (a.get(Infinity) ?? 0))[0];
  if (!busiest) return NaN;
  const total = busiest.get(Infinity)!;
  const bound = [...busiest].sort(([a], [b]) => a - b).find(([, count]) => count >= total * 0.99)?.[0];
  return bound === undefined ? NaN : bound * 1000;
}

/** What the server reports of its memory (MB) and its admission limit, from its metrics (NaN when it does not
 * answer in time). */
async function nodeGauges(base: string): Promise<NodeGauges> {
  try {
    const res = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
      signal: AbortSignal.timeout(900),
    });
    const text = await res.text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    const mb = (name: string) => gauge(name) / 1024 / 1024;
    return {
      heapMb: mb('svc_nodejs_heap_size_used_bytes'),
      heapTotalMb: mb('svc_nodejs_heap_size_total_bytes'),
      newSpaceMb: mb('svc_nodejs_heap_space_size_total_bytes\\{space="new"\\}'),
      externalMb: mb('svc_nodejs_external_memory_bytes'),
      limit: gauge('svc_http_admission_limit'),
    };
  } catch {
    return { heapMb: NaN, heapTotalMb: NaN, newSpaceMb: NaN, externalMb: NaN, limit: NaN };
  }
}

/** The customer messages a stopped service stored (its database: a SQLite file or a PostgreSQL URL). */
async function storedClientMessages(database: string): Promise<number> {
  const db = await openBenchDatabase(database);
  try {
    return Number((await db.all<{ n: number | string }>("SELECT count(*) AS n FROM messages WHERE author = 'client'"))[0]!.n);
  } finally {
    await db.close();
  }
}

/** The bodies of the overload bench: one message from each of 500 customers. */
const overloadBodies = Array.from({ length: 500 }, (_, i) =>
  JSON.stringify({ sender: { id: `c${i}`, name: 'Bench' }, message: { type: 'text', text: 'Hello, I have a question about my order' } }),
);

/**
 * Overload (issue 16): on each store of `BENCH_STORES`, the rate one node sustains (closed-loop, 50
 * connections), then four times that rate offered open-loop (`BENCH_OVERLOAD_FACTOR`) at each limit of
 * `BENCH_OVERLOAD_LIMITS`: `adaptive` (the default admission) or a fixed SVC_MAX_IN_FLIGHT (100000: none).
 * `BENCH_OVERLOAD_RATE=<n>` offers that rate instead of measuring the sustainable one.
 */
async function overload() {
  const sync = (process.env.BENCH_SYNC ?? 'full') as 'full' | 'normal';
  const factor = Number(process.env.BENCH_OVERLOAD_FACTOR ?? 4);
  const overloadConnections = Number(process.env.BENCH_OVERLOAD_CONNECTIONS ?? 256);
  const limits = (process.env.BENCH_OVERLOAD_LIMITS ?? 'adaptive,128,100000').split(',');
  const stores = await benchStores();
  try {
    const ceiling = await clientCeiling();
    console.log(
      `Load client: ${os.cpus().length} cores; against a trivial server it gets ${ceiling.answered.toFixed(0)} req/s answered ` +
        `(${ceiling.wire.toFixed(0)} req/s written)\n`,
    );
    for (const store of stores.names) {
      let sustained = { rps: Number(process.env.BENCH_OVERLOAD_RATE) / factor, p99: NaN, errors: 0 };
      let sustainedRss = { max: NaN, last: NaN };
      let sustainedGauges: NodeGauges | undefined;
      if (!process.env.BENCH_OVERLOAD_RATE) {
        const svc = await startService(stores.database(store, 'sustain'), { SVC_DB_SYNC: sync });
        const endpoint = await benchEndpoint(svc.base);
        const rss = watchRss(svc.child.pid!);
        sustained = await load(endpoint, svc.child.pid!, 0);
        sustainedRss = rss.stop();
        sustainedGauges = await nodeGauges(svc.base);
        await stopProcess(svc);
      }
      // A rate the client cannot write measures the client's lag, not the server: offer at most 80% of its ceiling.
      const capped = sustained.rps * factor > ceiling.answered * 0.8;
      const rate = Math.round(capped ? ceiling.answered * 0.8 : sustained.rps * factor);
      console.log(
        `${store}${store === 'sqlite' ? ` synchronous=${sync}` : ''}: one node sustains ${sustained.rps.toFixed(0)} req/s ` +
          `(p99 ${sustained.p99} ms, ${connections} connections, closed-loop, ${sustained.errors} errors or non-2xx); offering ` +
          `${(rate / sustained.rps).toFixed(1)}x = ${rate} req/s open-loop for ${seconds} s` +
          `${capped ? ` (${factor}x would be above 80% of the client's ceiling)` : ''}`,
      );
      // The memory of a node at its full rate, to weigh what overload adds: under any sustained load V8's young
      // generation grows to the semi-space the server is started with, in steps, overloaded or not.
      if (sustainedGauges) {
        console.log(
          `  at its sustainable rate (closed-loop, ${seconds} s after a warm-up): RSS max ${sustainedRss.max.toFixed(0)} MB, ` +
            `${sustainedRss.last.toFixed(0)} at the end; then heap held ${sustainedGauges.heapTotalMb.toFixed(0)} MB, of it young gen ` +
            `${sustainedGauges.newSpaceMb.toFixed(0)}`,
        );
      }
      console.log(
        'limit      offered/s  wire/s  client lag p99  accepted/s  refused  accepted p50   p99  refused p99  other  errors  unanswered',
      );
      for (const limit of limits) {
        const env: Record<string, string> = { SVC_DB_SYNC: sync };
        if (limit !== 'adaptive') Object.assign(env, { SVC_ADMISSION: 'fixed', SVC_MAX_IN_FLIGHT: limit });
        const database = stores.database(store, `overload-${limit}`);
        const node = await startService(database, env);
        const r = await overloadLoad(
          await benchEndpoint(node.base),
          overloadBodies,
          rate,
          seconds,
          node.child.pid!,
          () => nodeGauges(node.base),
          5000,
          overloadConnections,
        );
        const nodeP99 = await nodeAcceptedP99Ms(node.base);
        await stopProcess(node);
        const stored = await storedClientMessages(database);
        const n = (v: number, width: number) => v.toFixed(0).padStart(width);
        const m = r.rssMb;
        console.log(
          `${limit.padEnd(9)}  ${n(r.offered, 9)}  ${n(r.wire, 6)}  ${n(r.clientLagP99, 14)}  ${n((r.accepted / r.scheduled) * r.offered, 10)}  ` +
            `${`${((r.refused / r.scheduled) * 100).toFixed(0)}%`.padStart(7)}  ${n(r.acceptedP50, 12)}  ${n(r.acceptedP99, 5)}  ` +
            `${n(r.refusedP99, 11)}  ${n(r.failed, 5)}  ${n(r.errors, 6)}  ${n(r.unanswered, 10)}`,
        );
        // A request without an answer (connection reset, drain time over) may or may not have been stored.
        const unsure = r.errors + r.unanswered;
        const lost = Math.max(0, r.accepted - stored);
        const extra = Math.max(0, stored - r.accepted - unsure);
        console.log(
          `           stored: ${stored} customer messages for ${r.accepted} answered 2xx (${unsure} without an answer): ` +
            (lost || extra
              ? `${lost} answered 2xx but not stored, ${extra} stored though refused: FAILED`
              : 'none lost, none refused stored'),
        );
        if (lost || extra) process.exitCode = 1;
        const series = (values: number[]) => values.map((v) => v.toFixed(0)).join(' ');
        console.log(
          `           accepted p99 from each request's write ${n(r.acceptedFromWriteP99, 0)} ms (the client's sending lag taken out); ` +
            `inside the node <= ${n(nodeP99, 0)} ms (its histogram's bucket, whole run)`,
        );
        console.log(`           accepted p99 ms, second by second: ${series(r.acceptedP99BySecond)}`);
        console.log(
          `           RSS MB: ${n(m.start, 0)} before; at 25/50/75/100% of the load ${series(m.quarters)}; ${n(m.end, 0)} once answered, ` +
            `${n(m.after, 0)} 5 s later; max ${n(m.max, 0)}, after the first quarter ${n(m.maxAfterFirstQuarter, 0)} ` +
            `(${m.maxAfterFirstQuarter - m.quarters[0]! >= 0 ? '+' : ''}${n(m.maxAfterFirstQuarter - m.quarters[0]!, 0)} over the 25% mark)` +
            (sustainedGauges ? `; at its sustainable rate max ${n(sustainedRss.max, 0)}` : ''),
        );
        console.log(`           RSS MB, second by second:          ${series(r.rssMbBySecond)}`);
        console.log(`           heap used MB, second by second:    ${series(r.heapMbBySecond)}`);
        console.log(`           heap held MB, second by second:    ${series(r.heapTotalMbBySecond)}`);
        console.log(`           of it young gen MB, by second:     ${series(r.newSpaceMbBySecond)}`);
        console.log(`           external MB, second by second:     ${series(r.externalMbBySecond)}`);
        console.log(`           admission limit, second by second: ${series(r.limitBySecond)}`);
        const answers = r.accepted + r.refused + r.failed;
        console.log(
          `           node CPU ${n(r.nodeCpuMsPerSecond, 0)} ms per second of load, ${n((r.nodeCpuMs * 1000) / answers, 0)} us per answer ` +
            `(${r.accepted} accepted, ${r.refused} refused)`,
        );
      }
      console.log('');
    }
  } finally {
    stores.stop();
  }
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
    if (process.env.BENCH_OVERLOAD === '1') return await overload();
    const offered = rate > 0 ? `, ${rate} req/s offered` : '';
    console.log(`Chat API intake: ${connections} connections${offered}, ${seconds} s per run, loopback, ${os.cpus().length} cores\n`);
    console.log('sync    handler            req/s     p50 ms   p99 ms   errors   cpu ms/req');
    // issue 16: full durability stays >= 2x its bare handler, synchronous=NORMAL >= 0.8x.
    const targets = { full: 2.0, normal: 0.8 };
    const verdicts: string[] = [];
    const syncs = (process.env.BENCH_SYNCS ?? 'full,normal').split(',') as ('full' | 'normal')[];
    for (const sync of syncs) {
      const { bare, svc, compare } = await intake(sync, dir);
      const row = (name: string, r: typeof bare) =>
        console.log(
          `${sync.padEnd(8)}${name.padEnd(19)}${r.rps.toFixed(0).padStart(6)}   ${String(r.p50).padStart(6)}   ${String(r.p99).padStart(6)}   ${String(r.errors).padStart(6)}   ${r.cpuMsPerRequest.toFixed(3).padStart(6)}`,
        );
      row('bare koa+sqlite', bare);
      row('svc chat api', svc);
      if (compare) {
        row('svc (compare)', compare);
        verdicts.push(
          `${sync}: compared build ${(compare.rps / bare.rps).toFixed(2)}x the bare handler, CPU per request ${(compare.cpuMsPerRequest / bare.cpuMsPerRequest).toFixed(2)}x`,
        );
      }
      const ratio = svc.rps / bare.rps;
      verdicts.push(
        `${sync}: throughput ${ratio.toFixed(2)}x the bare handler (target >= ${targets[sync]}x) ${ratio >= targets[sync] ? 'OK' : 'BELOW TARGET'}; ` +
          `CPU per request ${(svc.cpuMsPerRequest / bare.cpuMsPerRequest).toFixed(2)}x the bare handler's; ` +
          `p99 ${svc.p99} ms vs ${bare.p99} ms ${svc.p99 <= bare.p99 ? 'OK' : 'WORSE'}`,
      );
    }
    console.log(`\n${verdicts.join('\n')}`);
    if (process.env.BENCH_DELIVERIES === '0') return;
    const d = await deliveries(dir);
    console.log(
      `\nDeliveries to a fast integrator: ${d.count} agent messages over 50 chats in ${d.ms.toFixed(0)} ms = ${d.perSecond.toFixed(0)}/s`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
