import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatchedStreamsAdapter } from '../src/cluster/batched-streams-adapter.ts';
import { newRedisClient, type RedisClient } from '../src/cluster/redis-client.ts';
import { throwawayRedis } from './support/throwaway-redis.ts';
import { sleep, until } from './support/wait.ts';

// Two nodes' socket.io servers on one Redis stream, as a cluster runs them: what one visitor socket receives
// when the two nodes broadcast to its room one after the other, while its node's stream reader lags.
const { redis, missing } = await throwawayRedis();
const streamOptions = { streamName: 'order-test', channelPrefix: 'order-test', sessionKeyPrefix: 'order-test:' };

const pass = <T extends object>(target: T, prop: string | symbol) => {
  const value: unknown = Reflect.get(target, prop, target);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
};

/** A client whose duplicates (the adapter's subscribers) hand over what Redis pushed only while not held, and whose
 * stream writes (the script that adds and pushes an entry) go out only while not held. */
function withHeldReader(client: RedisClient) {
  let gate = Promise.resolve();
  let open = () => undefined as void;
  let writeGate = Promise.resolve();
  let openWrites = () => undefined as void;
  const heldReader = (reader: RedisClient) =>
    new Proxy(reader, {
      get: (target, prop) =>
        prop === 'subscribe'
          ? (channels: string, listener: (message: string) => void) => {
              let heard = Promise.resolve();
              return target.subscribe(channels, (message: string) => {
                heard = heard.then(() => gate).then(() => listener(message));
              });
            }
          : pass(target, prop),
    });
  return {
    client: new Proxy(client, {
      get: (target, prop) =>
        prop === 'duplicate'
          ? () => heldReader(target.duplicate())
          : prop === 'eval'
            ? async (...args: Parameters<RedisClient['eval']>) => {
                await writeGate;
                return target.eval(...args);
              }
            : pass(target, prop),
    }),
    hold: () => void (gate = new Promise<void>((resolve) => (open = resolve))),
    release: () => open(),
    holdWrites: () => void (writeGate = new Promise<void>((resolve) => (openWrites = resolve))),
    releaseWrites: () => openWrites(),
  };
}

async function startNode(client: RedisClient) {
  await client.connect();
  const httpServer = http.createServer();
  const streams = createBatchedStreamsAdapter(client, streamOptions);
  const io = new Server(httpServer, { adapter: streams.adapter });
  io.on('connection', (socket) => void socket.join('room'));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return { io, url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, client, written: streams.written };
}
type Node = Awaited<ReturnType<typeof startNode>>;

describe.skipIf(missing !== undefined)('broadcasts of two nodes to one room', () => {
  let a: Node;
  let b: Node;
  let aWriter: ReturnType<typeof withHeldReader>;
  let bReader: ReturnType<typeof withHeldReader>;
  let visitor: Socket;
  const received: string[] = [];

  beforeAll(async () => {
    aWriter = withHeldReader(newRedisClient(redis!.url));
    a = await startNode(aWriter.client);
    bReader = withHeldReader(newRedisClient(redis!.url));
    b = await startNode(bReader.client);
    visitor = connect(b.url, { transports: ['websocket'] });
    visitor.on('say', (text: string) => received.push(text));
    await until(() => visitor.connected);
    // Both readers start at the stream's end a moment after their node: broadcast until each node hears the
    // other, B's own entry ahead of A's (so B has read one of its own back).
    for (let i = 0; !received.includes(`warm a ${i - 1}`); i++) {
      b.io.to('room').emit('say', `warm b ${i}`);
      await sleep(20);
      a.io.to('room').emit('say', `warm a ${i}`);
      await sleep(80);
    }
  });
  afterAll(async () => {
    aWriter?.releaseWrites();
    bReader?.release();
    bReader?.releaseWrites();
    visitor?.close();
    for (const node of [a, b]) {
      await node?.io.close();
      await node?.client.close();
    }
    await redis?.stop();
  });

  it("reach a visitor in the stream's order when the visitor's node reads the stream late", async () => {
    received.length = 0;
    bReader.hold();
    a.io.to('room').emit('say', 'first, through node A');
    await sleep(100);
    b.io.to('room').emit('say', 'second, through node B');
    await sleep(300);
    // Node B has not read A's entry yet: its own broadcast, written after it, waits too.
    expect(received).toEqual([]);
    bReader.release();
    await until(() => received.length === 2);
    expect(received).toEqual(['first, through node A', 'second, through node B']);
  });

  it('reach a visitor in the order two nodes answered them in, while the first one writes to the stream late', async () => {
    received.length = 0;
    aWriter.holdWrites();
    a.io.to('room').emit('say', 'first, answered by node A');
    // Node A answers the request that broadcast once `written` resolves; the next request goes to node B.
    const answered = a.written();
    setTimeout(() => aWriter.releaseWrites(), 300);
    await answered;
    b.io.to('room').emit('say', 'second, through node B after that answer');
    await until(() => received.length === 2);
    expect(received).toEqual(['first, answered by node A', 'second, through node B after that answer']);
  });

  it("reach the node's own sockets, late but once, when its reader stays stuck", async () => {
    received.length = 0;
    bReader.hold();
    b.io.to('room').emit('say', 'while the reader is stuck');
    await until(() => received.length === 1, 3000);
    bReader.release();
    // Read back later, it is not delivered twice.
    await sleep(300);
    expect(received).toEqual(['while the reader is stuck']);
  });

  it("reach the node's own sockets, each within a few seconds, while its writes to the stream go unanswered", async () => {
    received.length = 0;
    bReader.holdWrites();
    const sent: string[] = [];
    for (let i = 1; i <= 3; i++) {
      sent.push(`while Redis does not answer ${i}`);
      b.io.to('room').emit('say', sent.at(-1)!);
      await sleep(300);
    }
    // The first entry's write hangs: what follows is written behind it anyway, and each entry's own sockets get
    // it after the read-back wait.
    await until(() => received.length === 3, 4000);
    expect(received).toEqual(sent);
    bReader.releaseWrites();
    await sleep(300);
    expect(received).toEqual(sent);
  });
});
