import type Router from '@koa/router';
import { triggerRulesSchema } from '@svc/protocol';
import { requireAdmin } from '../../http/auth.ts';
import { channelFromParam } from '../channel-param.ts';
import { parseOr400 } from '../../http/validate.ts';
import type { Store } from '../../store/store.ts';

/**
 * A widget channel's default trigger rules (admin API). The body and the answer are the rules object that
 * svc_api.setRules takes, so what an admin keeps here a page can replace as it is.
 */
export function registerTriggerRoutes(router: Router, deps: { store: Store; adminTokenHash: string }): void {
  const { store } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);
  const widgetChannel = (raw: string) => channelFromParam(store, raw, 'triggers: only widget channels have them');

  router.get('/api/v1/channels/:id/triggers', admin, async (ctx) => {
    ctx.body = await store.triggers.get((await widgetChannel(ctx.params.id!)).id);
  });

  router.put('/api/v1/channels/:id/triggers', admin, async (ctx) => {
    const channel = await widgetChannel(ctx.params.id!);
    const rules = parseOr400(triggerRulesSchema, ctx.request.body);
    await store.triggers.set(channel.id, rules);
    ctx.body = rules;
  });
}
