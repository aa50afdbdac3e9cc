import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One agent message the integrator accepted (answered `{"result":"ok"}`). */
export interface Accepted {
  webhookId: string;
  recipient: string;
  messageId: number;
  text: string;
}

export type IntegratorMode = 'ok' | '503' | 'down';

/**
 * A stand-in for the Chat API integrator: a real HTTP server on 127.0.0.1. In mode `503` it answers every
 * request 503; in mode `down` its listening socket is closed, so connections are refused, and it listens
 * again on the same port when it comes back.
 */
export async function startIntegrator() {
  const accepted: Accepted[] = [];
  let refused = 0;
  let mode: IntegratorMode = 'ok';
  let delayMs = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      if (mode !== 'ok') {
        refused += 1;
        res.writeHead(503).end();
        return;
      }
      if (body.message?.id !== undefined) {
        accepted.push({
          webhookId: String(req.headers['webhook-id']),
          recipient: String(body.recipient?.id),
          messageId: Number(body.message.id),
          text: String(body.message.text),
        });
      }
      const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    accepted,
    refused: () => refused,
    /** Accepted requests are answered this much later: a sender killed meanwhile never learns of the acceptance. */
    setDelay(ms: number) {
      delayMs = ms;
    },
    async setMode(next: IntegratorMode) {
      if (next === mode) return;
      if (mode === 'down') await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      if (next === 'down') {
        // Stop listening at once; the server's keep-alive connections are cut too, so every attempt fails.
        server.close();
        server.closeAllConnections();
      }
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        if (mode === 'down') resolve();
        else server.close(() => resolve());
      }),
  };
}
export type Integrator = Awaited<ReturnType<typeof startIntegrator>>;

export interface DeliveryCheck {
  delivered: number;
  missing: number;
  /** The same message accepted under two webhook-ids: a duplicate the integrator cannot drop. */
  duplicates: number;
  /** The same webhook-id accepted again (dropped by the integrator; only allowed after a crash). */
  redelivered: number;
  orderViolations: number;
}

/** Compares what the integrator accepted with the agent messages that were acknowledged (201). */
export function checkDeliveries(accepted: Accepted[], expected: { messageId: number; recipient: string }[]): DeliveryCheck {
  const seenIds = new Set<string>();
  const idsOfMessage = new Map<number, Set<string>>();
  const firstArrivals = new Map<string, number[]>();
  let redelivered = 0;
  for (const a of accepted) {
    if (seenIds.has(a.webhookId)) {
      redelivered += 1;
      continue;
    }
    seenIds.add(a.webhookId);
    idsOfMessage.set(a.messageId, (idsOfMessage.get(a.messageId) ?? new Set()).add(a.webhookId));
    firstArrivals.set(a.recipient, [...(firstArrivals.get(a.recipient) ?? []), a.messageId]);
  }
  const missing = expected.filter((e) => !idsOfMessage.has(e.messageId)).length;
  const duplicates = [...idsOfMessage.values()].filter((ids) => ids.size > 1).length;
  let orderViolations = 0;
  // Within one chat messages go out in the order they were made, and ids grow in that order (spec: ordering).
  for (const ids of firstArrivals.values()) ids.forEach((id, i) => (orderViolations += i > 0 && id < ids[i - 1]! ? 1 : 0));
  return { delivered: expected.length - missing, missing, duplicates, redelivered, orderViolations };
}
