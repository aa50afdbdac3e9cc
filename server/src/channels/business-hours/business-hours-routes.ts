import type Router from '@koa/router';
import { businessHoursSchema, type BusinessHoursView } from '@svc/protocol';
import type { DomainEvents } from '../../conversations/domain-events.ts';
import { requireAdmin } from '../../http/auth.ts';
import { channelFromParam } from '../channel-param.ts';
import { parseOr400 } from '../../http/validate.ts';
import { hoursOpen } from '../../lib/business-hours.ts';
import type { Store } from '../../store/store.ts';

/** A channel's business hours (admin API), for widget and Chat API channels alike. */
export function registerBusinessHoursRoutes(router: Router, deps: { store: Store; events: DomainEvents; adminTokenHash: string }): void {
  const { store, events } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);
  const channelId = async (raw: string | undefined) => (await channelFromParam(store, raw)).id;
  const view = async (id: number): Promise<BusinessHoursView> => {
    const hours = await store.channels.businessHours(id);
    return { business_hours: hours, open_now: hoursOpen(hours, new Date()) };
  };
  // New hours may open or close the channel at once: its visitors, integrators' status polls and agents follow.
  const announce = async (id: number) => events.emit('channel.status', { channelId: id, status: await store.channels.status(id) });

  router.get('/api/v1/channels/:id/business-hours', admin, async (ctx) => {
    ctx.body = await view(await channelId(ctx.params.id));
  });

  router.put('/api/v1/channels/:id/business-hours', admin, async (ctx) => {
    const id = await channelId(ctx.params.id);
    await store.channels.setBusinessHours(id, parseOr400(businessHoursSchema, ctx.request.body));
    await announce(id);
    ctx.body = await view(id);
  });

  router.delete('/api/v1/channels/:id/business-hours', admin, async (ctx) => {
    const id = await channelId(ctx.params.id);
    await store.channels.setBusinessHours(id, null);
    await announce(id);
    ctx.status = 204;
  });
}
