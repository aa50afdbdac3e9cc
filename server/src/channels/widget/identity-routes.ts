import type Router from '@koa/router';
import { updateChannelIdentitySchema, type ChannelIdentityView } from '@svc/protocol';
import { requireAdmin } from '../../http/auth.ts';
import { channelFromParam } from '../channel-param.ts';
import { parseOr400 } from '../../http/validate.ts';
import type { Store } from '../../store/store.ts';

/** Verified visitors (admin API): a widget channel's identity secret, and whether it takes only signed user tokens. */
export function registerIdentityRoutes(router: Router, deps: { store: Store; adminTokenHash: string }): void {
  const { store } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);
  const widgetChannel = async (raw: string | undefined) =>
    (await channelFromParam(store, raw, 'identity: only widget channels have visitors to verify')).id;
  const view = async (id: number): Promise<ChannelIdentityView> => {
    const { secret, required } = await store.channels.identity(id);
    return { identity_secret: secret, require_verified_users: required };
  };

  router.get('/api/v1/channels/:id/identity', admin, async (ctx) => {
    ctx.body = await view(await widgetChannel(ctx.params.id));
  });

  router.patch('/api/v1/channels/:id/identity', admin, async (ctx) => {
    const id = await widgetChannel(ctx.params.id);
    await store.channels.requireVerifiedUsers(id, parseOr400(updateChannelIdentitySchema, ctx.request.body).require_verified_users);
    ctx.body = await view(id);
  });

  // Tokens signed with the old secret stop verifying at once; visitors already verified stay so.
  router.post('/api/v1/channels/:id/identity/rotate-secret', admin, async (ctx) => {
    const id = await widgetChannel(ctx.params.id);
    await store.channels.rotateIdentitySecret(id);
    ctx.body = await view(id);
  });
}
