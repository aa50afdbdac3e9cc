import type Router from '@koa/router';
import { appearanceInputSchema, resolveAppearance, widgetLocales, type WidgetAppearanceView } from '@svc/protocol';
import { requireAdmin } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { parseOr400 } from '../../http/validate.ts';
import type { Store } from '../../store/store.ts';
import { channelFromParam } from '../channel-param.ts';

/**
 * A widget channel's look and language (contract: "Widget appearance and language"). PUT replaces what was
 * stored: a field left out goes back to its default. The widget settings response reads it on every page load.
 */
export function registerAppearanceRoutes(router: Router, deps: { store: Store; adminTokenHash: string }): void {
  const { store } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);
  // Only widget channels have a look: for a Chat API channel the resource does not exist.
  const widgetChannel = async (raw: string | undefined) => {
    const channel = await channelFromParam(store, raw);
    if (channel.kind !== 'widget') throw notFound('No such widget channel');
    return channel;
  };
  const view = (stored: Parameters<typeof resolveAppearance>[0]): WidgetAppearanceView => ({
    ...resolveAppearance(stored),
    languages: widgetLocales,
  });

  router.get('/api/v1/channels/:id/appearance', admin, async (ctx) => {
    ctx.body = view(await store.appearance.get((await widgetChannel(ctx.params.id)).id));
  });

  router.put('/api/v1/channels/:id/appearance', admin, async (ctx) => {
    const channel = await widgetChannel(ctx.params.id);
    const appearance = parseOr400(appearanceInputSchema, ctx.request.body);
    await store.appearance.set(channel.id, appearance);
    ctx.body = view(appearance);
  });
}
