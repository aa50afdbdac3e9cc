import type Router from '@koa/router';
import { hashToken, safeEqual } from '../lib/secrets.ts';
import { bearerToken, requireAdmin } from '../http/auth.ts';
import type { Store } from '../store/store.ts';
import type { Metrics } from './metrics.ts';

interface MetricsRouteDeps {
  store: Store;
  metrics: Metrics;
  adminTokenHash: string;
  /** SVC_METRICS_TOKEN: lets a scraper in without the admin token. */
  metricsToken: string | undefined;
}

/** `GET /metrics` (contract: Reports, privacy and operations): the Prometheus text format, for the admin token
 * or `SVC_METRICS_TOKEN`. */
export function registerMetricsRoutes(router: Router, deps: MetricsRouteDeps): void {
  const admin = requireAdmin(deps.adminTokenHash, deps.store);
  const metricsTokenHash = deps.metricsToken ? hashToken(deps.metricsToken) : undefined;
  router.get(
    '/metrics',
    async (ctx, next) => {
      const token = bearerToken(ctx);
      if (metricsTokenHash && token && safeEqual(hashToken(token), metricsTokenHash)) return next();
      return admin(ctx, next);
    },
    async (ctx) => {
      ctx.type = deps.metrics.registry.contentType;
      ctx.body = await deps.metrics.registry.metrics();
    },
  );
}
