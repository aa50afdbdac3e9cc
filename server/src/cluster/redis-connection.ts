import type { Logger } from 'pino';
import type { ServerOptions } from 'socket.io';
import { createBatchedStreamsAdapter } from './batched-streams-adapter.ts';
import { newRedisClient, type RedisClient } from './redis-client.ts';

export type { RedisClient };

export interface RedisConnection {
  client: RedisClient;
  /** socket.io's adapter: room broadcasts, socketsJoin/Leave, disconnectSockets and serverSideEmit reach every node. */
  adapter: ServerOptions['adapter'];
  /** Resolves once every broadcast this node made so far is in the stream (batched-streams-adapter.ts). */
  broadcastsWritten(): Promise<void>;
  /** Closes the client; call it after socket.io is closed (the adapter closes the clients it duplicated). */
  close(): Promise<void>;
}

/**
 * The Redis every node shares (SVC_REDIS_URL). A stream as well as pub/sub: every entry is pushed to the nodes by
 * pub/sub, and a node that loses Redis for a moment reads the stream on from its last entry instead of missing the
 * broadcasts sent meanwhile (stream-pushes.ts). The broadcasts of one event-loop turn share one stream entry
 * (batched-streams-adapter.ts).
 */
export async function connectRedis(url: string, log: Logger): Promise<RedisConnection> {
  const client = newRedisClient(url);
  // Without a listener an error event would crash the process; node-redis reconnects by itself.
  let lastError = '';
  client.on('error', (err: Error) => {
    if (err.message !== lastError) log.error({ err }, 'redis connection failed');
    lastError = err.message;
  });
  client.on('ready', () => (lastError = ''));
  await client.connect();
  const streams = createBatchedStreamsAdapter(publishCaught(client, log), {
    streamName: 'svc:socket.io',
    channelPrefix: 'svc:socket.io',
    sessionKeyPrefix: 'svc:sio-session:',
  });
  return {
    client,
    adapter: streams.adapter,
    broadcastsWritten: streams.written,
    async close() {
      if (!client.isOpen) return;
      // Commands queued while Redis is away would hold a graceful close forever; give live ones a moment.
      if (!client.isReady) return client.destroy();
      const timer = setTimeout(() => client.destroy(), 2000);
      await client.close();
      clearTimeout(timer);
    },
  };
}

/**
 * The streams adapter leaves the promise of its pub/sub PUBLISH (serverSideEmit) unhandled: one refused or
 * flushed while Redis is away (at shutdown, say) must be logged, not crash the process as an unhandled rejection.
 */
function publishCaught(client: RedisClient, log: Logger): RedisClient {
  const publish = (channel: string, message: string | Buffer) =>
    client.publish(channel, message).catch((err: unknown) => {
      log.warn({ err, channel }, 'redis publish failed');
      return 0;
    });
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'publish' || prop === 'PUBLISH') return publish;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
