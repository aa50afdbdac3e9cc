import type { Middleware } from 'koa';

/**
 * While the server stops, every answer says `Connection: close` (RFC 9112 section 9.6), so the connection
 * ends after it. Closing the listener and the idle connections is not enough: a keep-alive client whose
 * request was in flight at that moment would otherwise send its next requests on the same connection and
 * keep the server serving, and stopping, for as long as its load lasts (fault suite scenario 4).
 */
export function closeWhenStopping(stopping: () => boolean): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if (stopping()) ctx.set('Connection', 'close');
    }
  };
}
