import type { Middleware } from 'koa';

/**
 * On a cluster node, a request that may have broadcast (anything but a read) is answered once its broadcasts are
 * in the Redis stream. Else the client's next request, sent after the answer and landing on another node, could
 * broadcast ahead of it: an agent's two replies would reach the visitor second first.
 */
export function answerAfterBroadcasts(written: () => Promise<void>): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') await written();
  };
}
