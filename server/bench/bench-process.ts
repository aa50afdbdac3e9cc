import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The built server on a free port with its own database, rate limits off, talking to loopback receivers. */
export const startService = (dbFile: string, env: Record<string, string> = {}) =>
  startProcess([...profileFlags, 'server/dist/main.js'], {
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
}

/** Posts Chat API messages from 500 customers to each URL at once, the connections split between them. */
export async function intakeLoad(urls: string[], seconds: number, connections: number): Promise<LoadResult> {
  let n = 0;
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({
        url,
        connections: Math.round(connections / urls.length),
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({
                sender: { id: `c${n++ % 500}`, name: 'Bench' },
                message: { type: 'text', text: 'Hello, I have a question about my order' },
              }),
            }),
          },
        ],
      }),
    ),
  );
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((sum, r) => sum + r.errors + r.non2xx, 0),
  };
}
