import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

/** A raw keep-alive connection, to control exactly when each byte of a request is sent. */
async function rawConnection(base: string) {
  const { port } = new URL(base);
  const socket = net.connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (d: Buffer) => (received += d.toString()));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    ended,
    /** Resolves with the head of the next complete answer. */
    async answer(): Promise<string> {
      for (let i = 0; i < 500 && !received.includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 20));
      const head = received.slice(0, received.indexOf('\r\n\r\n'));
      received = '';
      return head;
    },
  };
}

const body = JSON.stringify({ email: 'nobody@example.com', password: 'not a password' });
const loginHead = `POST /api/v1/auth/login HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;

describe('shutting down', () => {
  describe('while a request is in flight on a keep-alive connection', () => {
    it('answers it with Connection: close, so that the client cannot keep the server serving', async () => {
      t = await startTestServer();
      const conn = await rawConnection(t.base);
      conn.socket.write(loginHead + body.slice(0, 10)); // the request has begun; its body is not complete
      await new Promise((r) => setTimeout(r, 100));
      const closed = t.stop();
      await new Promise((r) => setTimeout(r, 100));
      conn.socket.write(body.slice(10));
      const head = await conn.answer();
      expect(head).toMatch(/^HTTP\/1.1 401/);
      expect(head.toLowerCase()).toContain('connection: close');
      await conn.ended;
      // A client that would have sent its next request on the same connection finds it closed, and the
      // server finishes stopping without waiting for it.
      await closed;
    });
  });

  /** Resolves with true when `stop` has finished within `ms`, false when it is still waiting. */
  const stopsWithin = (stop: Promise<void>, ms: number) =>
    Promise.race([stop.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  describe('while a client stops taking part', () => {
    it('cuts off a download its reader stopped reading, after the grace period', async () => {
      t = await startTestServer({ SVC_SHUTDOWN_GRACE_S: '0.3' });
      const agent = await createAgent(t.api);
      const big = Buffer.alloc(9 * 1024 * 1024, 'a');
      const uploaded = await fetch(`${t.base}/api/v1/uploads?name=big.txt`, {
        method: 'POST',
        body: big,
        headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${agent.token}` },
      });
      expect(uploaded.status).toBe(201);
      const file = new URL(((await uploaded.json()) as { file: string }).file);
      const conn = await rawConnection(t.base);
      conn.socket.write(`GET ${file.pathname} HTTP/1.1\r\nHost: test\r\n\r\n`);
      expect(await conn.answer()).toMatch(/^HTTP\/1.1 200/);
      conn.socket.pause(); // the reader hangs: the server's writes fill the socket buffers and wait
      await new Promise((r) => setTimeout(r, 200));
      expect(await stopsWithin(t.stop(), 10_000)).toBe(true);
      conn.socket.resume();
      await conn.ended;
    });

    it('cuts off a request whose body stopped coming, after the grace period', async () => {
      t = await startTestServer({ SVC_SHUTDOWN_GRACE_S: '0.3' });
      const conn = await rawConnection(t.base);
      conn.socket.write(loginHead + body.slice(0, 10)); // and never the rest
      await new Promise((r) => setTimeout(r, 100));
      expect(await stopsWithin(t.stop(), 10_000)).toBe(true);
      await conn.ended;
    });
  });
});
