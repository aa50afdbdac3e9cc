import type Router from '@koa/router';
import type { Middleware } from 'koa';

/**
 * A route of the lane it runs itself: the router, per request, matches every route of its stack, builds and
 * composes a chain for the match and decodes its parameters, a measurable part of the Chat API intake (issue 16).
 * The route stays registered on the router too, which answers whatever this does not match exactly.
 */
export interface DirectRoute {
  method: string;
  /** The pattern the router knows the route by, which metrics and the request log name it by. */
  path: string;
  /** Matches exactly the paths of the route; its groups are the parameters named in `params`, in that order. */
  match: RegExp;
  params: readonly string[];
  handler: Middleware;
}

/** The `path`, `match` and `params` of a route pattern of literal segments and `:name` parameters, each
 * parameter a whole segment (what the router would match, without its optional trailing slash). */
export function routePattern(path: string): Pick<DirectRoute, 'path' | 'match' | 'params'> {
  const params: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { path, match: new RegExp(`^${source}$`), params };
}

/** A path segment as the router decodes it: as written when it is no valid escape. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The requests under `prefix` leave the app's chain here: they run `own`'s body reading and routes (its 405 for a
 * method it lacks) and end, every other request goes on. A request passes every middleware before its route,
 * each an async call: the Chat API intake, the hottest route, then skips the upload routes, the widget frame,
 * the static sites and the service's hundred-odd other routes, none of which answer under its prefix (issue 16).
 * A request that one of `direct` matches goes straight to its handler.
 */
export function laneByPrefix(prefix: string, readBody: Middleware, own: Router, direct: readonly DirectRoute[] = []): Middleware {
  // As app.use takes them: the router sets its own context fields (params, router) when it runs.
  const ownRoutes = own.routes() as Middleware;
  const ownMethods = own.allowedMethods({ throw: true }) as Middleware;
  const routes = (ctx: Parameters<Middleware>[0]) => ownRoutes(ctx, () => ownMethods(ctx, end));
  return (ctx, next) => {
    if (!ctx.path.startsWith(prefix)) return next();
    return runDirect(ctx, readBody, direct) ?? readBody(ctx, () => routes(ctx));
  };
}

/**
 * Routes that run ahead of the app's later middleware and its router, as the Chat API intake does in its lane:
 * the agent API's message and the widget's offline form, the hottest writes after the intake, skip the upload
 * routes, the widget frame, the static sites and the router's matching of the service's hundred-odd routes, none
 * of which answer them (issue 16). Any other request goes on; the routes stay registered on the router too.
 */
export function directRoutes(readBody: Middleware, direct: readonly DirectRoute[]): Middleware {
  return (ctx, next) => runDirect(ctx, readBody, direct) ?? next();
}

const end = () => Promise.resolve();

/** Runs the route of `direct` that matches the request exactly, or answers undefined when none does. */
function runDirect(ctx: Parameters<Middleware>[0], readBody: Middleware, direct: readonly DirectRoute[]): Promise<unknown> | undefined {
  for (const route of direct) {
    const found = ctx.method === route.method ? route.match.exec(ctx.path) : null;
    if (!found) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < route.params.length; i++) params[route.params[i]!] = decodeSegment(found[i + 1]!);
    const routed = ctx as typeof ctx & { params: Record<string, string>; _matchedRoute: string };
    routed.params = params;
    // As the router would: a body refused before the route runs is counted unmatched, as before.
    return readBody(ctx, () => {
      routed._matchedRoute = route.path;
      return route.handler(ctx, end);
    });
  }
  return undefined;
}
