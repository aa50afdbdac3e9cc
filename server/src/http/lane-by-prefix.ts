import type Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * The requests under `prefix` leave the app's chain here: they run `own`'s body reading and routes (its 405 for a
 * method it lacks) and end, every other request goes on. A request passes every middleware before its route,
 * each an async call: the Chat API intake, the hottest route, then skips the upload routes, the widget frame,
 * the static sites and the service's hundred-odd other routes, none of which answer under its prefix (issue 16).
 */
export function laneByPrefix(prefix: string, readBody: Middleware, own: Router): Middleware {
  // As app.use takes them: the router sets its own context fields (params, router) when it runs.
  const ownRoutes = own.routes() as Middleware;
  const ownMethods = own.allowedMethods({ throw: true }) as Middleware;
  const end = () => Promise.resolve();
  const routes = (ctx: Parameters<Middleware>[0]) => ownRoutes(ctx, () => ownMethods(ctx, end));
  return (ctx, next) => (ctx.path.startsWith(prefix) ? readBody(ctx, () => routes(ctx)) : next());
}
