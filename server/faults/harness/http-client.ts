import http from 'node:http';

export interface Answer {
  status: number;
  body: any;
}

// One keep-alive pool per run; a killed server leaves its sockets to fail, and new requests open new ones.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One JSON request. Resolves with the status and parsed body of any answer; rejects when no answer came
 * (refused, reset, timed out): such a request was not acknowledged.
 */
export function request(
  method: string,
  url: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent, timeout: options.timeoutMs ?? 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** A request that must succeed with `expected`; for setup steps. */
export async function must(method: string, url: string, expected: number, options: Parameters<typeof request>[2] = {}): Promise<any> {
  const answer = await request(method, url, options);
  if (answer.status !== expected)
    throw new Error(`${method} ${url}: expected ${expected}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it answers true or `timeoutMs` passes; answers whether it became true. */
export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}
