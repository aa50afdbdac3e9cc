import type Router from '@koa/router';
import { chooseLocale, launcherLook, resolveAppearance, type WidgetSettings } from '@svc/protocol';
import type { CallService } from '../../calls/call-service.ts';
import { notFound } from '../../http/errors.ts';
import { hoursHideWidget } from '../../lib/business-hours.ts';
import type { Store } from '../../store/store.ts';

/** The tags of an Accept-Language header in the order the browser prefers them (it lists them so). */
const acceptedLanguages = (header: string) =>
  header
    .split(',')
    .map((part) => part.split(';')[0]!.trim())
    .filter((tag) => tag !== '' && tag !== '*');

/** The loader's one small request before the chat is needed: the channel's name and online status, the
 * launcher, whether calls can be asked for, the trigger rules and the look and language
 * (read on every load: an admin's change reaches the next page load). Any
 * site may embed the widget, so it answers every origin. */
export function registerWidgetRoutes(router: Router, deps: { store: Store; calls: CallService }): void {
  router.get('/widget-api/:publicId/settings', async (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    const channel = await deps.store.channels.findByPublicId(ctx.params.publicId!);
    if (!channel || channel.kind !== 'widget') throw notFound('No such widget');
    const hidden = hoursHideWidget(await deps.store.channels.businessHours(channel.id), new Date());
    const appearance = resolveAppearance(await deps.store.appearance.get(channel.id));
    const body: WidgetSettings = {
      widget_id: channel.publicId,
      name: channel.name,
      status: (await deps.store.channels.status(channel.id)) === 1 ? 'online' : 'offline',
      launcher: launcherLook(appearance, hidden, chooseLocale(appearance.language, acceptedLanguages(ctx.get('accept-language')))),
      hidden,
      verify_users: (await deps.store.channels.identity(channel.id)).required,
      // No visitor is known here: the widget's socket adds "a call is already in progress".
      callback: await deps.calls.availabilityFor(channel, null),
      rules: (await deps.store.triggers.get(channel.id)).rules.filter((rule) => rule.enabled),
      appearance,
    };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
}
