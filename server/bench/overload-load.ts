import fs from 'node:fs';
import autocannon from 'autocannon';
import { customerMessages } from './bench-process.ts';

export interface OverloadResult {
  /** Requests per second actually offered (sent / duration): below the asked rate when the client lagged. */
  offered: number;
  sent: number;
  accepted: number;
  refused: number;
  /** Answers neither 2xx nor 503: must stay 0. */
  failed: number;
  /** Requests without an answer (autocannon's timeouts and resets), from the whole run. */
  errors: number;
  /** Latency of the 2xx answers after the first second (the connections are being opened then), ms. */
  acceptedP50: number;
  acceptedP99: number;
  refusedP99: number;
  /** Resident memory of the server, MB, sampled at the start, the middle and the end of the load. */
  rssMb: [number, number, number];
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

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : NaN;

/**
 * Open-loop Chat API load: `rate` messages per second spread over many connections, each on its own schedule
 * whatever the answers (a connection's next send waits for its answer, so there are enough connections that a
 * slow answer delays no schedule by much), for `seconds` or `rate * seconds` messages, whichever ends first.
 */
export async function overloadLoad(url: string, rate: number, seconds: number, pid: number): Promise<OverloadResult> {
  // Below the listen backlog (511): more connections opened at once overflow it, and the SYN retries (1 s, 3 s,
  // 7 s) of those left out would be measured as the latency of their first request.
  const connections = Math.min(500, Math.max(50, Math.ceil(rate / 4)));
  const accepted: number[] = [];
  const refused: number[] = [];
  let failed = 0;
  const rss: number[] = [rssMb(pid)];
  const middle = setTimeout(() => rss.push(rssMb(pid)), (seconds * 1000) / 2);
  const started = performance.now();
  let finish: (result: autocannon.Result) => void = () => undefined;
  let abort: (error: unknown) => void = () => undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => ((finish = resolve), (abort = reject)));
  const options: autocannon.Options = {
    url,
    connections,
    overallRate: rate,
    amount: Math.round(rate * seconds),
    duration: seconds + 5,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: customerMessages({ n: 0 }),
  };
  const instance = autocannon(options, (error, result) => (error ? abort(error) : finish(result)));
  const warm = started + 1000;
  let acceptedCount = 0;
  let refusedCount = 0;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    const kept = performance.now() >= warm;
    if (status >= 200 && status < 300) {
      acceptedCount++;
      if (kept) accepted.push(ms);
    } else if (status === 503) {
      refusedCount++;
      if (kept) refused.push(ms);
    } else failed++;
  });
  const result = await done;
  const elapsed = (performance.now() - started) / 1000;
  clearTimeout(middle);
  rss.push(rssMb(pid));
  accepted.sort((a, b) => a - b);
  refused.sort((a, b) => a - b);
  const sent = acceptedCount + refusedCount + failed;
  return {
    offered: sent / elapsed,
    sent,
    accepted: acceptedCount,
    refused: refusedCount,
    failed,
    errors: result.errors,
    acceptedP50: percentile(accepted, 0.5),
    acceptedP99: percentile(accepted, 0.99),
    refusedP99: percentile(refused, 0.99),
    rssMb: [rss[0]!, rss[1] ?? NaN, rss[2] ?? rss[1] ?? NaN],
  };
}
