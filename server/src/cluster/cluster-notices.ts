import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';
import type { Server } from 'socket.io';

/**
 * What every node must hear to keep its own memory right. Domain events stay on the node where they happen
 * (their listeners broadcast to rooms, which the adapter carries to every node); a notice is for state a node
 * keeps about its own sockets or caches. Payloads are ids: each node reads the rest from the shared store.
 */
export interface ClusterNoticeMap {
  /** An agent's record changed (presence, name, photo): drop what was cached of it. */
  'agent.changed': { agentId: number };
  /** An agent token was revoked (a logout, a deactivation): drop it from the agent token cache. */
  'agent.token-revoked': { tokenHash: string };
  /** What isCallbackEnabled answers may have changed for a channel's visitors, or for one visitor's. */
  'callback.changed': { channelId: number; clientId?: number };
  /** A channel was changed or deleted: drop it from the channel lookup cache. */
  'channel.changed': { channelId: number };
}
type NoticeName = keyof ClusterNoticeMap;
/** Every notice, listed by a map so that a new one cannot be forgotten here. */
const noticeNames = Object.keys({
  'agent.changed': true,
  'agent.token-revoked': true,
  'callback.changed': true,
  'channel.changed': true,
} satisfies Record<NoticeName, true>) as NoticeName[];

/**
 * Notices heard on every node, this one included, through socket.io's serverSideEmit (Redis pub/sub under the
 * streams adapter). On one node, without Redis, they stay in the process.
 *
 * @example
 * const notices = createClusterNotices(io, { clustered: config.redisUrl !== undefined, log });
 * notices.on('agent.changed', ({ agentId }) => cache.delete(agentId));
 * notices.publish('agent.changed', { agentId: 7 });
 */
export function createClusterNotices(io: Server, options: { clustered: boolean; log: Logger }) {
  const local = new EventEmitter();
  let open = true;
  if (options.clustered) for (const name of noticeNames) io.on(name, (payload: unknown) => local.emit(name, payload));
  return {
    publish<N extends NoticeName>(name: N, payload: ClusterNoticeMap[N]): void {
      local.emit(name, payload);
      // After close() the Redis client is gone; a late notice has nobody left to reach.
      if (!options.clustered || !open) return;
      try {
        io.serverSideEmit(name, payload);
      } catch (err) {
        options.log.error({ err, notice: name }, 'cluster notice not sent');
      }
    },
    on<N extends NoticeName>(name: N, listener: (payload: ClusterNoticeMap[N]) => void): void {
      local.on(name, listener);
    },
    /** Stops sending to other nodes (before the Redis client closes). */
    close(): void {
      open = false;
    },
  };
}
export type ClusterNotices = ReturnType<typeof createClusterNotices>;
