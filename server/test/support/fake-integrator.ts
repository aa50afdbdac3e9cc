import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  raw: string;
  at: number;
}

export type Responder = (req: ReceivedRequest) => { status: number; body?: unknown; delayMs?: number } | 'hang';

/** A stand-in for the integrating system: a real HTTP server on 127.0.0.1 that records what it gets. */
export async function startFakeIntegrator(responder: Responder = () => ({ status: 200, body: { result: 'ok' } })) {
  const received: ReceivedRequest[] = [];
  let respond = responder;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = undefined;
      }
      const entry: ReceivedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw, at: Date.now() };
      received.push(entry);
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
      const answer = respond(entry);
      if (answer === 'hang') return;
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    setResponder(r: Responder) {
      respond = r;
    },
    /** Resolves once `count` requests have arrived in all. */
    waitFor(count: number, timeoutMs = 10_000): Promise<void> {
      if (received.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`expected ${count} requests, got ${received.length}`)), timeoutMs);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
