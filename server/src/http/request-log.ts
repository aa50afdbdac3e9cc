import type { Middleware } from 'koa';
import type { Logger } from 'pino';

/** One structured line per request. The route pattern is logged, not the path: Chat API paths carry a secret. */
export function requestLog(log: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? (ctx.status === 404 ? '(unmatched)' : ctx.path);
      log.info({ method: ctx.method, route, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
    }
  };
}
