import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cpuMs, root, startProcess, stopProcess } from './bench-process.ts';

export interface OverloadResult {
  /** Requests per second the schedule offered (due within the run / its duration). */
  offered: number;
  /** Requests per second actually written to the sockets while sending: below `offered` when the client lagged. */
  wire: number;
  /** p99 of how late a request went out after it was due (the client's own lag, or no free connection), ms. */
  clientLagP99: number;
  scheduled: number;
  accepted: number;
  refused: number;
  /** Answers neither 2xx nor 429/503: must stay 0. */
  failed: number;
  /** Connections closed or reset with a request on them. */
  errors: number;
  /** Due requests without an answer when the drain time ran out. */
  unanswered: number;
  /** Latency of the 2xx answers (from when each request was due) after the first second, ms. */
  acceptedP50: number;
  acceptedP99: number;
  /** p99 of the accepted answers' time from when each request was written (after the first second), ms: the
   * server's share, without the client's lag in sending. */
  acceptedFromWriteP99: number;
  /** p99 of the accepted answers per second of the run: bounded means it does not climb. */
  acceptedP99BySecond: number[];
  refusedP99: number;
  /** Resident memory of the server, MB: before the load; at 25, 50, 75 and 100% of the time it is offered; once
   * its answers are in (or the drain time is over) and `settleMs` after that; the most it reached, and the most
   * after the first quarter (sampled every 250 ms): flat means `maxAfterFirstQuarter` stays near `quarters[0]`. */
  rssMb: { start: number; quarters: number[]; end: number; after: number; max: number; maxAfterFirstQuarter: number };
  /** Resident memory of the server at the end of each second of the load, MB: flat means it stops climbing. */
  rssMbBySecond: number[];
  /** The server's JavaScript heap in use at the end of each second, MB (its own report): what our objects hold,
   * apart from memory the allocator keeps. */
  heapMbBySecond: number[];
  /** The heap V8 holds from the system at the end of each second, MB, all spaces: live objects, garbage not yet
   * collected and room to allocate. */
  heapTotalMbBySecond: number[];
  /** Of that, the young generation (both semi-spaces), MB: it grows with the rate of short-lived garbage. */
  newSpaceMbBySecond: number[];
  /** Memory outside the heap that JavaScript objects hold (Buffers, sockets' data), MB. */
  externalMbBySecond: number[];
  /** The node's admission limit at the end of each second (`svc_http_admission_limit`). */
  limitBySecond: number[];
  /** CPU the server process used from the first request to the last answer, ms per second: with `accepted` and
   * `refused`, what its answers cost, apart from how fast a loaded machine let the client send. */
  nodeCpuMsPerSecond: number;
  /** The same, in all. */
  nodeCpuMs: number;
}

/** What the server reports of itself at the end of each second. */
export interface NodeGauges {
  heapMb: number;
  heapTotalMb: number;
  newSpaceMb: number;
  externalMb: number;
  limit: number;
}

/** Resident set size of a process in MB, from /proc (NaN elsewhere). */
export function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples a process's resident memory every 250 ms until stopped: its most, MB, and the last sample. */
export function watchRss(pid: number): { stop(): { max: number; last: number } } {
  const samples = [rssMb(pid)];
  const timer = setInterval(() => samples.push(rssMb(pid)), 250);
  return {
    stop() {
      clearInterval(timer);
      samples.push(rssMb(pid));
      return { max: Math.max(...samples), last: samples.at(-1)! };
    },
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;

const WORKER = path.join(root, 'server/bench/open-loop-worker.mjs');
/** Processes of the load client: one per core, so the client is not what limits the rate it offers. */
const CLIENT_PROCESSES = Number(process.env.BENCH_CLIENT_PROCESSES ?? 2);

interface WorkerResult {
  sent: number;
  scheduled: number;
  sendingMs: number;
  lagP99: number;
  accepted: number[];
  acceptedFromWrite: number[];
  acceptedAt: number[];
  refused: number[];
  refusedAt: number[];
  failed: number;
  errors: number;
  unanswered: number;
}

export interface OpenLoopJob {
  url: string;
  /** Request bodies, sent in turn. */
  bodies: string[];
  rate: number;
  seconds: number;
  connections: number;
  drainMs?: number;
}

/** Runs the job split over the client processes, all starting at once once every connection is open. */
async function openLoop(job: OpenLoopJob, during: (t0: number) => void = () => undefined): Promise<WorkerResult[]> {
  const { port, pathname } = new URL(job.url);
  const workers: ChildProcess[] = [];
  const count = Math.round(job.rate * job.seconds);
  try {
    const ready: Promise<unknown>[] = [];
    const results: Promise<WorkerResult>[] = [];
    for (let i = 0; i < CLIENT_PROCESSES; i++) {
      const worker = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
      workers.push(worker);
      const messages: unknown[] = [];
      let wake: () => void = () => undefined;
      worker.on('message', (m) => (messages.push(m), wake()));
      const nextMessage = async () => {
        while (messages.length === 0) await new Promise<void>((resolve) => (wake = resolve));
        return messages.shift();
      };
      ready.push(nextMessage());
      results.push(ready[i]!.then(() => nextMessage() as Promise<WorkerResult>));
      worker.send({
        port: Number(port),
        path: pathname,
        bodies: job.bodies,
        rate: job.rate / CLIENT_PROCESSES,
        count: Math.round(count / CLIENT_PROCESSES),
        seconds: job.seconds,
        drainMs: job.drainMs ?? 10_000,
        connections: Math.ceil(job.connections / CLIENT_PROCESSES),
      });
    }
    await Promise.all(ready);
    for (const worker of workers) worker.send('go');
    during(performance.now());
    return await Promise.all(results);
  } finally {
    for (const worker of workers) if (worker.exitCode === null) worker.kill();
  }
}

/** The most requests per second the client gets answered by a server that does nothing (one process). */
export async function clientCeiling(seconds = 3): Promise<{ answered: number; wire: number }> {
  const trivial = await startProcess([path.join(root, 'server/bench/open-loop-worker.mjs'), '--trivial-server'], {});
  try {
    const results = await openLoop({
      url: `${trivial.base}/`,
      bodies: ['{"a":1}'],
      rate: 200_000,
      seconds,
      connections: 200,
      drainMs: 2000,
    });
    const answered = results.reduce((sum, r) => sum + r.accepted.length, 0);
    const sent = results.reduce((sum, r) => sum + r.sent, 0);
    const ms = Math.max(...results.map((r) => r.sendingMs));
    return { answered: answered / (ms / 1000), wire: sent / (ms / 1000) };
  } finally {
    await stopProcess(trivial);
  }
}

/**
 * Open-loop Chat API load at `rate` messages per second for `seconds`, from several client processes over
 * `connections` keep-alive connections, while the server's memory is sampled.
 */
export async function overloadLoad(
  url: string,
  bodies: string[],
  rate: number,
  seconds: number,
  pid: number,
  gauges: () => Promise<NodeGauges>,
  settleMs = 5000,
  /** Keep-alive connections of the client, each with one request at a time: how many requests can wait at once. */
  connections = 256,
): Promise<OverloadResult> {
  const start = rssMb(pid);
  const samples: { at: number; mb: number }[] = [];
  const quarters = [NaN, NaN, NaN, NaN];
  const bySecond: number[] = [];
  const gaugesBySecond: NodeGauges[] = [];
  let nodeCpuBefore = NaN;
  let loadStart = NaN;
  const timers: NodeJS.Timeout[] = [];
  const results = await openLoop({ url, bodies, rate, seconds, connections }, () => {
    nodeCpuBefore = cpuMs([pid]);
    loadStart = performance.now();
    timers.push(setInterval(() => samples.push({ at: performance.now() - loadStart, mb: rssMb(pid) }), 250));
    quarters.forEach((_, q) => timers.push(setTimeout(() => (quarters[q] = rssMb(pid)), (seconds * 1000 * (q + 1)) / 4)));
    timers.push(
      setInterval(() => {
        if (bySecond.length >= seconds) return;
        bySecond.push(rssMb(pid));
        const second = gaugesBySecond.length;
        gaugesBySecond.push({ heapMb: NaN, heapTotalMb: NaN, newSpaceMb: NaN, externalMb: NaN, limit: NaN });
        void gauges().then((g) => (gaugesBySecond[second] = g));
      }, 1000),
    );
  });
  const nodeCpuMs = cpuMs([pid]) - nodeCpuBefore;
  const nodeCpuMsPerSecond = nodeCpuMs / ((performance.now() - loadStart) / 1000);
  for (const timer of timers) clearTimeout(timer);
  const end = rssMb(pid);
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const after = rssMb(pid);
  const maxOf = (from: number) => Math.max(...samples.filter((s) => s.at >= from).map((s) => s.mb), end);

  const accepted: number[] = [];
  const fromWrite: number[] = [];
  const p99BySecond: number[][] = [];
  const refused: number[] = [];
  for (const r of results) {
    r.accepted.forEach((ms, i) => {
      const second = Math.floor(r.acceptedAt[i]! / 1000);
      (p99BySecond[second] ??= []).push(ms);
      if (second < 1) return;
      accepted.push(ms);
      fromWrite.push(r.acceptedFromWrite[i]!);
    });
    r.refused.forEach((ms, i) => r.refusedAt[i]! >= 1000 && refused.push(ms));
  }
  accepted.sort((a, b) => a - b);
  fromWrite.sort((a, b) => a - b);
  refused.sort((a, b) => a - b);
  const sum = (f: (r: WorkerResult) => number) => results.reduce((total, r) => total + f(r), 0);
  const sendingS = Math.max(...results.map((r) => r.sendingMs)) / 1000;
  return {
    offered: sum((r) => r.scheduled) / sendingS,
    wire: sum((r) => r.sent) / sendingS,
    clientLagP99: Math.max(...results.map((r) => r.lagP99)),
    scheduled: sum((r) => r.scheduled),
    accepted: sum((r) => r.accepted.length),
    refused: sum((r) => r.refused.length),
    failed: sum((r) => r.failed),
    errors: sum((r) => r.errors),
    unanswered: sum((r) => r.unanswered),
    acceptedP50: percentile(accepted, 0.5),
    acceptedP99: percentile(accepted, 0.99),
    acceptedFromWriteP99: percentile(fromWrite, 0.99),
    acceptedP99BySecond: p99BySecond.slice(0, seconds).map((s) =>
      percentile(
        s.sort((a, b) => a - b),
        0.99,
      ),
    ),
    refusedP99: percentile(refused, 0.99),
    rssMb: { start, quarters, end, after, max: maxOf(0), maxAfterFirstQuarter: maxOf((seconds * 1000) / 4) },
    rssMbBySecond: bySecond,
    heapMbBySecond: gaugesBySecond.map((g) => g.heapMb),
    heapTotalMbBySecond: gaugesBySecond.map((g) => g.heapTotalMb),
    newSpaceMbBySecond: gaugesBySecond.map((g) => g.newSpaceMb),
    externalMbBySecond: gaugesBySecond.map((g) => g.externalMb),
    limitBySecond: gaugesBySecond.map((g) => g.limit),
    nodeCpuMsPerSecond,
    nodeCpuMs,
  };
}
