// `pnpm bench`, many nodes: Chat API intake on one SQLite node, one PostgreSQL node and two
// PostgreSQL nodes (with Redis), each beside a bare Koa handler on the same database engine measured in the
// same run; then agent-to-visitor latency with both on one node and across the two nodes.
// Everything shares this machine's cores: the engines, the nodes and the load generator.
// `BENCH_COMPARE_MAIN=<file>`: the PostgreSQL setups also run that server build (e.g. the previous commit's
// bundle) in the same run, right after this one, for a before/after on a machine whose load moves.
// `BENCH_RATE=<req/s>`: the intake load is offered at that rate (open-loop) instead of as fast as it is answered.
// autocannon offers it in bursts: each connection sends its share of a second one request after another from the
// start of each second, then waits for the next second (a node's broadcasts of a burst share few stream entries).
// The CPU columns count Redis with PostgreSQL (a run that does not use it leaves it idle); the two-node lines give
// Redis's CPU apart, with its stream commands and bytes per request.
// The CPU a node spends per request depends on how many requests share a statement or a stream entry, which moves
// with the throughput a loaded machine allows; at one rate every build gets the same traffic, and its CPU per
// request is what to compare (the rate must stay below what every setup sustains: check req/s). The two-node
// lines then compare CPU per request; the other setups' req/s ratios compare offered rates: read their cpu columns.
// Each run is measured after BENCH_WARMUP_SECONDS (default 2) of the same load (bench-process.ts intakeLoad).
// Two nodes, and the two bare handlers they are compared with, are behind one nginx (round robin, its workers' CPU
// counted with PostgreSQL's), as the multi-node target is set; `BENCH_NGINX=0` sends the load to the nodes
// directly, half each. The bare handlers share nothing; a second pair also publishes each message through Redis
// pub/sub to the other (bare-pg-server.mjs), the least a cluster does so that a console on one node sees what the
// other took.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { VISITOR_NAMESPACE } from '@svc/protocol';
import { io } from 'socket.io-client';
import { type RunningRedis, startPostgres, startRedis } from '../../scripts/lib/engines.mjs';
import { startNginx, type RunningNginx } from '../../scripts/lib/nginx.mjs';
import {
  BENCH_ADMIN_TOKEN,
  cpuMs,
  intakeLoad,
  json,
  postgresPids,
  root,
  withChildren,
  startProcess,
  startService,
  stopProcess,
  type Running,
} from './bench-process.ts';
import { printStatementStats, resetStatementStats, statementStatsSettings } from './pg-statement-stats.ts';
import { type RedisCommandStats, redisCommandStats, redisCommandsPerRequest } from './redis-command-stats.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const compareMain = process.env.BENCH_COMPARE_MAIN;
const rate = Number(process.env.BENCH_RATE ?? 0);
const behindNginx = process.env.BENCH_NGINX !== '0';

/** A load run, with the CPU time the nodes alone and Redis alone spent per request beside that of nodes +
 * PostgreSQL + Redis (Redis shares the cores: what the nodes send through it costs there too). */
async function load(urls: string[], pids: () => number[], nodePids: () => number[], redis: RunningRedis) {
  const redisPids = redis.pid ? [redis.pid] : [];
  let redisBefore = 0;
  let commandsBefore = new Map<string, RedisCommandStats>();
  const { partCpuMsPerRequest, requests, ...result } = await intakeLoad(urls, seconds, connections, pids, rate, nodePids, () => {
    redisBefore = cpuMs(redisPids);
    commandsBefore = redisCommandStats(redis.port);
  });
  const redisCpuMsPerRequest = requests > 0 ? (cpuMs(redisPids) - redisBefore) / requests : NaN;
  const commands = redisCommandsPerRequest(commandsBefore, redisCommandStats(redis.port), requests);
  return { ...result, nodeCpuMsPerRequest: partCpuMsPerRequest, redisCpuMsPerRequest, redisCommands: commands };
}
type Measured = Awaited<ReturnType<typeof load>>;
const cpuPerRequest = (r: Measured) =>
  `${r.cpuMsPerRequest.toFixed(3)} ms CPU per request (nodes ${r.nodeCpuMsPerRequest.toFixed(3)} ms, Redis ${r.redisCpuMsPerRequest.toFixed(3)} ms), ${r.rps.toFixed(0)} req/s answered`;
/** The Redis commands line, when redis-cli could read them. */
const redisLines = (build: string, r: Measured) => (r.redisCommands ? [`  Redis per request, ${build}: ${r.redisCommands}`] : []);
// `BENCH_SETUPS=pg1,pg2` runs only those setups (sqlite, pg1, pg2, latency), for a short run on a shared machine;
// `pg2-local` (with pg2) adds this build's two nodes without Redis: what carrying broadcasts between nodes costs.
const setups = new Set((process.env.BENCH_SETUPS ?? 'sqlite,pg1,pg2,latency').split(','));

async function setUp(base: string, email = 'bench@example.com') {
  const agent = await json('POST', `${base}/api/v1/agents`, { name: 'Bench', email, password: 'bench password' }, BENCH_ADMIN_TOKEN);
  const channel = await json(
    'POST',
    `${base}/api/v1/channels`,
    { kind: 'chat_api', name: 'Bench', webhook_url: 'http://127.0.0.1:9/none', chunked: false, agent_ids: [agent.id] },
    BENCH_ADMIN_TOKEN,
  );
  const widget = await json(
    'POST',
    `${base}/api/v1/channels`,
    { kind: 'widget', name: 'Bench widget', agent_ids: [agent.id] },
    BENCH_ADMIN_TOKEN,
  );
  return { agent, endpoint: new URL(channel.endpoint).pathname, widgetId: widget.public_id as string };
}

/** Agent message to visitor screen: the agent posts through `agentBase`, the visitor listens on `visitorBase`. */
async function latency(agentBase: string, visitorBase: string, setup: Awaited<ReturnType<typeof setUp>>, samples = 200) {
  const socket = io(`${visitorBase}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: setup.widgetId },
    transports: ['websocket'],
    forceNew: true,
  });
  await new Promise<void>((resolve) => socket.once('session', () => resolve()));
  const ack = await socket.timeout(5000).emitWithAck('message:send', { client_msg_id: `bench-${Date.now()}`, text: 'hello' });
  const chatId = ack.value.chat_id as number;
  await json('POST', `${agentBase}/api/v1/chats/${chatId}/accept`, undefined, setup.agent.token);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const text = `latency ${i}`;
    const seen = new Promise<void>((resolve) => {
      const onMessage = (m: { text?: string }) => {
        if (m.text !== text) return;
        socket.off('message:new', onMessage);
        resolve();
      };
      socket.on('message:new', onMessage);
    });
    const started = performance.now();
    await json('POST', `${agentBase}/api/v1/chats/${chatId}/messages`, { type: 'text', text }, setup.agent.token);
    await seen;
    times.push(performance.now() - started);
  }
  socket.disconnect();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

const row = (setup: string, handler: string, r: Measured) =>
  console.log(
    `${setup.padEnd(22)}${handler.padEnd(20)}${r.rps.toFixed(0).padStart(6)}   ${String(r.p50).padStart(6)}   ${String(r.p99).padStart(6)}   ${String(r.errors).padStart(6)}   ${r.cpuMsPerRequest.toFixed(2).padStart(6)}   ${r.nodeCpuMsPerRequest.toFixed(2).padStart(6)}   ${r.redisCpuMsPerRequest.toFixed(2).padStart(6)}`,
  );

async function main() {
  if (!fs.existsSync(path.join(root, 'server/dist/main.js'))) throw new Error('server/dist/main.js is missing: run pnpm build first');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cluster-bench-'));
  const pg = await startPostgres({ maxConnections: 200, settings: statementStatsSettings });
  const redis = await startRedis();
  const running: Running[] = [];
  const stopAll = async () => {
    for (const r of running.splice(0)) await stopProcess(r);
  };
  try {
    const offered = rate > 0 ? `, ${rate} req/s offered` : '';
    console.log(
      `Chat API intake, many nodes: ${connections} connections${offered}, ${seconds} s per run, loopback, ${os.cpus().length} cores`,
    );
    console.log(
      `(PostgreSQL, Redis, the nodes${behindNginx ? ', nginx in front of two nodes' : ''} and the load generator share these cores)\n`,
    );
    console.log(
      'setup                 handler              req/s     p50 ms   p99 ms   errors   cpu ms/req: nodes + PostgreSQL + Redis (+ nginx), nodes, Redis',
    );
    const nodes = () => running.map((r) => r.child.pid!);
    const withPg = () => [...nodes(), ...postgresPids(path.join(pg.dir, 'data')), ...(redis.pid ? [redis.pid] : [])];
    const ratios: string[] = [];

    // One SQLite node, synchronous=full, beside the bare Koa + SQLite handler.
    if (setups.has('sqlite')) {
      running.push(await startProcess(['server/bench/bare-server.mjs'], { BENCH_DB: path.join(dir, 'bare.sqlite'), BENCH_SYNC: 'full' }));
      const bareSqlite = await load([`${running[0]!.base}/messages`], nodes, nodes, redis);
      await stopAll();
      row('1 node, SQLite', 'bare koa+sqlite', bareSqlite);
      running.push(await startService(path.join(dir, 'svc.sqlite')));
      const setup = await setUp(running[0]!.base);
      const sqlite = await load([`${running[0]!.base}${setup.endpoint}`], nodes, nodes, redis);
      await stopAll();
      row('1 node, SQLite', 'svc chat api', sqlite);
      ratios.push(`1 SQLite node: ${(sqlite.rps / bareSqlite.rps).toFixed(2)}x its bare handler`);
    }

    // One PostgreSQL node.
    let onePg: Measured | undefined;
    if (setups.has('pg1')) {
      running.push(await startProcess(['server/bench/bare-pg-server.mjs'], { BENCH_DB: pg.createDatabase('bare1') }));
      const barePg = await load([`${running[0]!.base}/messages`], withPg, nodes, redis);
      await stopAll();
      row('1 node, PostgreSQL', 'bare koa+pg', barePg);
      const oneNode = async (db: string, main?: string) => {
        running.push(await startService(pg.createDatabase(db), {}, main));
        const setup = await setUp(running[0]!.base);
        resetStatementStats(pg);
        const result = await load([`${running[0]!.base}${setup.endpoint}`], withPg, nodes, redis);
        await stopAll();
        printStatementStats(pg, db);
        return result;
      };
      onePg = await oneNode('svc1');
      row('1 node, PostgreSQL', 'svc chat api', onePg);
      ratios.push(`1 PostgreSQL node: ${(onePg.rps / barePg.rps).toFixed(2)}x its bare handler (p99 ${onePg.p99} vs ${barePg.p99} ms)`);
      if (compareMain) {
        const compared = await oneNode('svc1compare', compareMain);
        row('1 node, PostgreSQL', 'svc (compare)', compared);
        ratios.push(`1 PostgreSQL node, compared build: ${(compared.rps / barePg.rps).toFixed(2)}x (p99 ${compared.p99} ms)`);
      }
    }

    // Two PostgreSQL nodes with Redis, the load split between them.
    if (setups.has('pg2') || setups.has('latency')) {
      const svcDb = pg.createDatabase('svc2');
      if (setups.has('pg2')) {
        const bareDb = pg.createDatabase('bare2');
        /** The load on `path` of the two nodes running: through one nginx in front of both, or half each. */
        const loadTwo = async (route: string) => {
          if (!behindNginx)
            return load(
              running.map((r) => `${r.base}${route}`),
              withPg,
              nodes,
              redis,
            );
          let lb: RunningNginx | undefined;
          try {
            lb = await startNginx({ upstreams: running.map((r) => new URL(r.base).host), balance: 'round-robin' });
            const nginxPids = withChildren(lb.child.pid!);
            return await load([`${lb.url}${route}`], () => [...withPg(), ...nginxPids], nodes, redis);
          } finally {
            await lb?.stop();
          }
        };
        const bareNodes = async (env: Record<string, string> = {}) => {
          running.push(await startProcess(['server/bench/bare-pg-server.mjs'], { BENCH_DB: bareDb, ...env }));
          running.push(await startProcess(['server/bench/bare-pg-server.mjs'], { BENCH_DB: bareDb, ...env }));
          const result = await loadTwo('/messages');
          await stopAll();
          return result;
        };
        const bareTwo = await bareNodes();
        row('2 nodes, PostgreSQL', 'bare koa+pg x2', bareTwo);
        const bareShared = await bareNodes({ BENCH_REDIS_URL: redis.url });
        row('2 nodes, PostgreSQL', 'bare x2 + pub/sub', bareShared);
        /** `shared`: the nodes carry each other's broadcasts through Redis, as a cluster must; without, each node's
         * sockets hear only what that node takes (not a working cluster: where the rest of the CPU goes). */
        const twoNodes = async (db: string, main?: string, shared = true) => {
          const env: Record<string, string> = shared ? { SVC_REDIS_URL: redis.url } : {};
          running.push(await startService(db, env, main));
          running.push(await startService(db, env, main));
          const setup = await setUp(running[0]!.base);
          resetStatementStats(pg);
          const result = await loadTwo(setup.endpoint);
          await stopAll();
          printStatementStats(pg, new URL(db).pathname.slice(1));
          return result;
        };
        const twoPg = await twoNodes(svcDb);
        row('2 nodes, PostgreSQL', 'svc chat api', twoPg);
        ratios.push(
          rate > 0
            ? `2 PostgreSQL nodes at ${rate} req/s: ${cpuPerRequest(twoPg)} vs two bare handlers ${cpuPerRequest(bareTwo)}`
            : `2 PostgreSQL nodes: ${(twoPg.rps / bareTwo.rps).toFixed(2)}x two bare handlers (p99 ${twoPg.p99} vs ${bareTwo.p99} ms)` +
                (onePg ? `; ${(twoPg.rps / onePg.rps).toFixed(2)}x one node` : ''),
          rate > 0
            ? `  two bare handlers that publish each message through Redis pub/sub: ${cpuPerRequest(bareShared)}`
            : `  ${(twoPg.rps / bareShared.rps).toFixed(2)}x two bare handlers that publish each message through Redis pub/sub (p99 ${bareShared.p99} ms)`,
          ...redisLines('this build', twoPg),
        );
        if (setups.has('pg2-local')) {
          const local = await twoNodes(pg.createDatabase('svc2local'), undefined, false);
          row('2 nodes, PostgreSQL', 'svc, no Redis', local);
          ratios.push(
            rate > 0
              ? `  this build without Redis (each node's sockets hear only its own messages): ${cpuPerRequest(local)}`
              : `  this build without Redis (each node's sockets hear only its own messages): ${(local.rps / bareTwo.rps).toFixed(2)}x two bare handlers`,
          );
        }
        if (compareMain) {
          const compared = await twoNodes(pg.createDatabase('svc2compare'), compareMain);
          row('2 nodes, PostgreSQL', 'svc (compare)', compared);
          ratios.push(
            rate > 0
              ? `2 PostgreSQL nodes at ${rate} req/s, compared build: ${cpuPerRequest(compared)}`
              : `2 PostgreSQL nodes, compared build: ${(compared.rps / bareTwo.rps).toFixed(2)}x (p99 ${compared.p99} ms)`,
            ...redisLines('compared build', compared),
          );
        }
      }
      if (setups.has('latency')) {
        running.push(await startService(svcDb, { SVC_REDIS_URL: redis.url }));
        running.push(await startService(svcDb, { SVC_REDIS_URL: redis.url }));
        const [a, b] = running as [Running, Running];
        const setup = await setUp(a.base, setups.has('pg2') ? 'bench2@example.com' : 'bench@example.com');
        const same = await latency(a.base, a.base, setup);
        const across = await latency(a.base, b.base, setup);
        await stopAll();
        ratios.push(
          `Agent message to visitor (REST post to socket.io message:new, 200 in a row):\n` +
            `  same node:    p50 ${same.p50.toFixed(1)} ms, p99 ${same.p99.toFixed(1)} ms\n` +
            `  across nodes: p50 ${across.p50.toFixed(1)} ms, p99 ${across.p99.toFixed(1)} ms (through Redis)`,
        );
      }
    }
    console.log(`\n${ratios.join('\n')}`);
  } finally {
    await stopAll();
    await redis.stop();
    pg.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
