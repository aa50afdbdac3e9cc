import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
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
      for (let i = 0; i < 100 && !received.includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 20));
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
});
