// The cluster's broadcasts alone: two node processes, each a socket.io server with the batched streams adapter
// (server/src/cluster), broadcast a Chat API message's two console events (message:new and chat:updated) to a
// channel room no console watches, at an even rate, as requests arriving one by one would. Prints the nodes' and
// Redis's CPU per request and the stream entries per request, beside the same broadcasts on the in-memory
// adapter (one node, nothing leaves the process). cluster-bench.ts offers its rate in bursts (many requests per
// stream entry); here each request may get its own entry, which is what a cluster pays at a moderate, even rate.
// `BENCH_RATE` (requests per second per node, default 125), `BENCH_SECONDS` (default 8, after 2 s of warm-up).
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Server } from 'socket.io';
import { startRedis } from '../../scripts/lib/engines.mjs';
import { createBatchedStreamsAdapter } from '../src/cluster/batched-streams-adapter.ts';
import { newRedisClient } from '../src/cluster/redis-client.ts';
import { cpuMs } from './bench-process.ts';
import { redisCommandStats, redisCommandsPerRequest } from './redis-command-stats.ts';

const rate = Number(process.env.BENCH_RATE ?? 125);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const warmupSeconds = 2;

/** A chat as the console's chat:updated carries it (the bench's Chat API customers look like this). */
function chatView(id: number, message: object) {
  const client = { id: `c${id}`, name: 'Bench', phone: null, email: null, photo: null, url: null, invite: null };
  return {
    id,
    channel_id: 1,
    channel_kind: 'chat_api',
    channel_name: 'Bench',
    state: 'open',
    client: { ...client, display_name: 'Bench', visitor_number: null, description: null, custom_data: [], user_token: null },
    assigned_agent_id: null,
    created_at: new Date().toISOString(),
    closed_at: null,
    last_message: message,
  };
}

/** One node: broadcasts `rate` requests' events per second, each request in its own turn of the event loop. */
async function node(redisUrl: string | undefined) {
  const server = new Server(http.createServer());
  if (redisUrl) {
    const client = newRedisClient(redisUrl);
    await client.connect();
    server.adapter(
      createBatchedStreamsAdapter(client, { streamName: 'bench', channelPrefix: 'bench', sessionKeyPrefix: 'bench:' }).adapter,
    );
  }
  const agents = server.of('/agents');
  const started = performance.now();
  let sent = 0;
  // One timer per request, as one arriving request wakes a node once.
  const sendNext = () => {
    sent++;
    const message = { id: sent, chat_id: sent, author: 'client', type: 'text', text: `Hello, question ${sent} about my order` };
    agents.to('channel:1').emit('message:new', { ...message, created_at: new Date().toISOString(), delivery: 'delivered' });
    agents.to('channel:1').emit('chat:updated', chatView(sent, message));
    setTimeout(sendNext, Math.max(0, started + ((sent + 1) * 1000) / rate - performance.now()));
  };
  sendNext();
  process.send?.('ready');
}

async function run(label: string, nodes: number, redis?: Awaited<ReturnType<typeof startRedis>>) {
  const children: ChildProcess[] = [];
  for (let i = 0; i < nodes; i++) {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, BENCH_BROADCAST_NODE: redis?.url ?? 'memory' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await new Promise((resolve) => child.once('message', resolve));
    children.push(child);
  }
  await new Promise((resolve) => setTimeout(resolve, warmupSeconds * 1000));
  const pids = children.map((c) => c.pid!);
  const redisPids = redis?.pid ? [redis.pid] : [];
  const [nodesBefore, redisBefore, commandsBefore] = [cpuMs(pids), cpuMs(redisPids), redis ? redisCommandStats(redis.port) : new Map()];
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const requests = rate * nodes * seconds;
  const nodesCpu = (cpuMs(pids) - nodesBefore) / requests;
  const redisCpu = (cpuMs(redisPids) - redisBefore) / requests;
  const commands = redis ? redisCommandsPerRequest(commandsBefore, redisCommandStats(redis.port), requests) : '';
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode === null ? c.once('exit', resolve) : resolve(null)))));
  console.log(
    `${label.padEnd(34)}nodes ${nodesCpu.toFixed(3)} ms, Redis ${redisCpu.toFixed(3)} ms per request${commands ? `; ${commands}` : ''}`,
  );
}

if (process.env.BENCH_BROADCAST_NODE) {
  await node(process.env.BENCH_BROADCAST_NODE === 'memory' ? undefined : process.env.BENCH_BROADCAST_NODE);
} else {
  console.log(
    `Console broadcasts of ${rate} Chat API requests per second per node, ${seconds} s, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.log("(CPU per request includes each node's timers and idle event loop: compare the lines of one run)\n");
  const redis = await startRedis();
  try {
    await run('1 node, in-memory adapter', 1);
    await run('2 nodes through Redis', 2, redis);
    await run('1 node, in-memory adapter', 1);
    await run('2 nodes through Redis', 2, redis);
  } finally {
    await redis.stop();
  }
}
