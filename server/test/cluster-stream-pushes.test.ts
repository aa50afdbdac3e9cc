import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatchedStreamsAdapter } from '../src/cluster/batched-streams-adapter.ts';
import { newRedisClient, type RedisClient } from '../src/cluster/redis-client.ts';
import { ADD_AND_PUSH, pushedEntry, readStreamPushes } from '../src/cluster/stream-pushes.ts';
import { throwawayRedis } from './support/throwaway-redis.ts';
import { sleep, until } from './support/wait.ts';

// Two nodes' socket.io servers on one Redis: the stream's entries reach every node by Redis pushes, and a node
// whose push connection drops reads what it missed from the stream.
const { redis, missing } = await throwawayRedis();
afterAll(async () => {
  await redis?.stop();
});
const streamOptions = { streamName: 'pushes-test', channelPrefix: 'pushes-test', sessionKeyPrefix: 'pushes-test:' };

async function startNode() {
  const client: RedisClient = newRedisClient(redis!.url);
  await client.connect();
  const httpServer = http.createServer();
  const io = new Server(httpServer, { adapter: createBatchedStreamsAdapter(client, streamOptions).adapter });
  io.on('connection', (socket) => void socket.join('room'));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return { io, url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, client };
}
type Node = Awaited<ReturnType<typeof startNode>>;

describe.skipIf(missing !== undefined)('stream entries pushed to the nodes', () => {
  let a: Node;
  let b: Node;
  let visitor: Socket;
  const received: unknown[] = [];

  beforeAll(async () => {
    a = await startNode();
    b = await startNode();
    visitor = connect(b.url, { transports: ['websocket'] });
    visitor.on('say', (text: unknown) => received.push(text));
    await until(() => visitor.connected);
    // Each node's reader starts at the stream's end a moment after its node.
    for (let i = 0; !received.includes(`warm ${i - 1}`); i++) {
      a.io.to('room').emit('say', `warm ${i}`);
      await sleep(50);
    }
  });
  afterAll(async () => {
    visitor?.close();
    for (const node of [a, b]) {
      await node?.io.close();
      await node?.client.close();
    }
  });

  it('reach a socket on the other node each once and in order while Redis drops the push connections', async () => {
    received.length = 0;
    const sent: number[] = [];
    for (let i = 1; i <= 300; i++) {
      sent.push(i);
      a.io.to('room').emit('say', i);
      // A few times along the way, Redis drops every subscriber (as it does one over its output-buffer limit).
      if (i % 75 === 0) await a.client.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
      await sleep(i % 10 === 0 ? 20 : 0);
    }
    await until(() => received.length >= sent.length, 10_000);
    await sleep(200);
    expect(received).toEqual(sent);
  });

  it('reach a socket on the other node with binary data', async () => {
    received.length = 0;
    a.io.to('room').emit('say', Buffer.from('binary through the stream'));
    await until(() => received.length === 1);
    expect(Buffer.from(received[0] as ArrayBuffer).toString()).toBe('binary through the stream');
  });

  it('reach a socket on the other node after Redis forgot its scripts', async () => {
    received.length = 0;
    await a.client.sendCommand(['SCRIPT', 'FLUSH']);
    a.io.to('room').emit('say', 'after SCRIPT FLUSH');
    await until(() => received.length === 1);
    expect(received).toEqual(['after SCRIPT FLUSH']);
  });

  it('leave no node blocked on a stream read in Redis', async () => {
    const info = (await a.client.sendCommand(['INFO', 'clients'])) as string;
    expect(info).toMatch(/blocked_clients:0\r?\n/);
  });
});

describe.skipIf(missing !== undefined)('a node whose reader could not start at once', () => {
  it('hears the entries written once Redis answers (its start is tried again)', async () => {
    const client: RedisClient = newRedisClient(redis!.url);
    await client.connect();
    let refused = 0;
    // Redis away for the reader's first look at the stream, as when Redis restarts while the node starts.
    const flaky = new Proxy(client, {
      get(target, prop) {
        if (prop === 'xRevRange' && refused++ === 0) return () => Promise.reject(new Error('connection reset'));
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const heard: string[] = [];
    const reader = readStreamPushes(flaky, { streamName: 'start-test', channel: 'start-test#entries' }, (fields) =>
      heard.push(fields.batch!),
    );
    try {
      for (let i = 0; !heard.includes(`entry ${i - 1}`); i++) {
        await client.eval(ADD_AND_PUSH, {
          keys: ['start-test'],
          arguments: pushedEntry(1000, 'start-test#entries', { nsp: '/', batch: `entry ${i}` }),
        });
        if (i > 100) throw new Error(`no entry heard after ${i} written`);
        await sleep(50);
      }
      expect(refused).toBeGreaterThan(1);
    } finally {
      reader.close();
      await client.close();
    }
  });
});
