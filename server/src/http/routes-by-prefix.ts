import type Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * Two routers, chosen by the path: a path under `prefix` is matched against `own`'s routes only, anything else
 * against `rest`'s. A router tries every route it has on every request; the Chat API intake, the hottest route,
 * then skips the service's hundred-odd others (issue 16). Each keeps its own 405 for a method it lacks.
 */
export function routesByPrefix(prefix: string, own: Router, rest: Router): Middleware {
  // As app.use takes them: the routers set their own context fields (params, router) when they run.
  const ownRoutes = own.routes() as Middleware;
  const ownMethods = own.allowedMethods({ throw: true }) as Middleware;
  const restRoutes = rest.routes() as Middleware;
  const restMethods = rest.allowedMethods({ throw: true }) as Middleware;
  return (ctx, next) =>
    ctx.path.startsWith(prefix) ? ownRoutes(ctx, () => ownMethods(ctx, next)) : restRoutes(ctx, () => restMethods(ctx, next));
}
