import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from '../../scripts/lib/server-node-flags.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789';

export interface Running {
  base: string;
  child: ChildProcess;
}

/** Starts a Node script from the repository root and resolves once it prints the port it listens on. */
export function startProcess(args: string[], env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /port (\d+)/.exec(out);
      if (m) resolve({ base: `http://127.0.0.1:${m[1]}`, child });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

// `BENCH_PROFILE_DIR=<dir>`: every server a benchmark starts writes a CPU profile there when it stops
// (open it in Chrome DevTools), to see where the time of a run goes.
const profileFlags = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_PROFILE_DIR)}`] : [];

// `BENCH_SERVER_MAIN=<file>`: the server build to measure (default server/dist/main.js), e.g. an older
// commit's bundle, to compare two builds under the same load.
const serverMain = process.env.BENCH_SERVER_MAIN ?? 'server/dist/main.js';

/** The built server on a free port with its own database, rate limits off, talking to loopback receivers;
 * started with the flags `pnpm serve` gives Node. */
export const startService = (dbFile: string, env: Record<string, string> = {}, main = serverMain) =>
  startProcess([...profileFlags, ...serverNodeFlags, main], {
    PORT: '0',
    SVC_DB: dbFile,
    SVC_RATE_LIMITS: 'off',
    SVC_LOG_LEVEL: 'warn',
    SVC_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    SVC_ALLOW_PRIVATE_URLS: '1',
    ...env,
  });

/** Stops it gracefully (SIGTERM) and waits for it to exit. */
export async function stopProcess(r: Running): Promise<void> {
  await new Promise((resolve) => {
    r.child.once('exit', resolve);
    r.child.kill('SIGTERM');
  });
}

/** A JSON request that must succeed, for setting up what a benchmark measures. */
export async function json(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time the measured processes spent per request (user + system): unlike req/s, barely moved by the
   * other work on a shared machine. NaN when no process was measured (or /proc is missing). */
  cpuMsPerRequest: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** User + system CPU milliseconds the processes used so far (0 for one that is gone). */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone, or not Linux
    }
  }
  return ticks * TICK_MS;
}

/** A process and its children (PostgreSQL's backends, nginx's workers). */
export function withChildren(parent: number): number[] {
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [parent, ...children];
}

/** A PostgreSQL server's processes: the postmaster of `dataDir` and its children (one backend per connection). */
export function postgresPids(dataDir: string): number[] {
  return withChildren(Number(fs.readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]));
}

/** Seconds of the same load, unmeasured, before each intake run: every handler is measured warm, as a running
 * service is (V8 has compiled its code and the 500 customers have their chats), not in its first second. */
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

/** Posts Chat API messages from 500 customers to each URL at once, the connections split between them, after
 * `warmupSeconds` of the same load. */
export async function intakeLoad(
  urls: string[],
  seconds: number,
  connections: number,
  /** The processes whose CPU time is measured (the servers, and the database engine when it runs apart). */
  pids: () => number[] = () => [],
  /** Requests per second offered over all URLs, whatever the answers; 0: as fast as they are answered. */
  rate = 0,
  /** Processes whose CPU per request is also given apart (`partCpuMsPerRequest`), e.g. the nodes without their engine. */
  partPids: () => number[] = () => [],
  /** Called after the warm-up, as the measured run starts: to read other counters over the same span. */
  onMeasureStart: () => void = () => undefined,
): Promise<LoadResult & { partCpuMsPerRequest: number; requests: number }> {
  const counter = { n: 0 };
  const run = (duration: number) =>
    Promise.all(
      urls.map((url) =>
        autocannon({
          url,
          connections: Math.round(connections / urls.length),
          duration,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          requests: customerMessages(counter),
          ...(rate > 0 ? { overallRate: rate / urls.length } : {}),
        }),
      ),
    );
  if (warmupSeconds > 0) await run(warmupSeconds);
  onMeasureStart();
  const cpuBefore = cpuMs(pids());
  const partCpuBefore = cpuMs(partPids());
  const results = await run(seconds);
  const cpu = cpuMs(pids()) - cpuBefore;
  const partCpu = cpuMs(partPids()) - partCpuBefore;
  const requests = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    requests,
    cpuMsPerRequest: pids().length > 0 && requests > 0 ? cpu / requests : NaN,
    partCpuMsPerRequest: partPids().length > 0 && requests > 0 ? partCpu / requests : NaN,
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  };
}

/** The Chat API message every intake bench sends, from 500 customers in turn (`counter` shared by a run's clients). */
export function customerMessages(counter: { n: number }): autocannon.Request[] {
  return [
    {
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({
          sender: { id: `c${counter.n++ % 500}`, name: 'Bench' },
          message: { type: 'text', text: 'Hello, I have a question about my order' },
        }),
      }),
    },
  ];
}

/** The middle of `values`: what one bare run beside a service run is worth on a shared machine, where a single
 * run of a fast client swung 3-10x (issue 16). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
