import type Router from '@koa/router';

export interface RegisteredRoute {
  method: string;
  path: string;
}

/** What the routers really answer, method by method; HEAD, which the router adds to every GET, left out. */
export function registeredRoutes(...routers: Router[]): RegisteredRoute[] {
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) =>
      layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method: method.toLowerCase(), path: String(layer.path) })),
    ),
  );
}
