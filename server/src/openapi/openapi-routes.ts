import type Router from '@koa/router';
import type { PublicUrls } from '../lib/public-urls.ts';
import { buildOpenApiDocument } from './openapi-document.ts';

/** `GET /api/openapi.json` (contract: Machine-readable API description): no token, any origin. */
export function registerOpenApiRoutes(router: Router, deps: { urls: PublicUrls }): void {
  let document: string | undefined;
  router.get('/api/openapi.json', (ctx) => {
    // Built on first use: the public base URL is known only once the server listens.
    document ??= JSON.stringify(buildOpenApiDocument(deps.urls.base));
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.type = 'application/json';
    ctx.body = document;
  });
}
