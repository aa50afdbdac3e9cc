import type Router from '@koa/router';
import { providerEventNames, providerEventSchema, type BotEventAnswer } from '@svc/protocol';
import type { Context } from 'koa';
import { bearerToken } from '../http/auth.ts';
import { AppError, invalidClient, rateLimited } from '../http/errors.ts';
import type { RateLimits } from '../http/rate-limits.ts';
import { parseOr400 } from '../http/validate.ts';
import { safeEqual } from '../lib/secrets.ts';
import type { BotProviderRecord, ChannelRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { BotInbound } from './bot-inbound.ts';
import type { ProviderTokens } from './oauth-tokens.ts';

interface BotRouteDeps {
  store: Store;
  inbound: BotInbound;
  tokens: ProviderTokens;
  rateLimits: RateLimits;
}

/** spec 4.2 provider to service: `{bot_url}/webhooks/{provider_id}/{token}`, and `{bot_url}/providers/...`
 * with the access token of spec 5.3 in the Authorization header. */
export function registerBotRoutes(router: Router, deps: BotRouteDeps): void {
  const { store, inbound, tokens, rateLimits } = deps;

  /** The provider and the channel its token names; 401 invalid_client otherwise (compared in constant time). */
  async function authenticate(ctx: Context): Promise<{ provider: BotProviderRecord; channel: ChannelRecord }> {
    const { providerId, token } = ctx.params as { providerId: string; token: string };
    const provider = await store.botProviders.findByProviderId(providerId);
    const channels = provider ? await store.channels.withBot(provider.id) : [];
    let match: ChannelRecord | undefined;
    for (const c of channels) if (safeEqual(token, c.bot!.token) && !match) match = c;
    if (!provider || !match) throw invalidClient('Unknown provider or token');
    if (!(await rateLimits.botProviders.take(provider.providerId))) throw rateLimited(60);
    return { provider, channel: match };
  }

  async function receive(ctx: Context, provider: BotProviderRecord, channel: ChannelRecord) {
    const body = ctx.request.body as { event?: unknown } | undefined;
    const name = body && typeof body === 'object' ? body.event : undefined;
    if (typeof name === 'string' && !(providerEventNames as readonly string[]).includes(name)) {
      throw new AppError('method_not_allowed', `event ${name} is not supported; send BOT_MESSAGE or INVITE_AGENT`);
    }
    const event = parseOr400(providerEventSchema, body);
    await inbound.process(provider, channel, event, 'webhook');
    ctx.body = { result: 'ok' } satisfies BotEventAnswer;
  }

  router.post('/bot/webhooks/:providerId/:token', async (ctx) => {
    const { provider, channel } = await authenticate(ctx);
    // A provider registered with `auth` uses the protected route only.
    if (provider.auth) throw new AppError('unauthorized_client', 'This provider must post to /providers/... with its access token');
    await receive(ctx, provider, channel);
  });

  router.post('/bot/providers/:providerId/:token', async (ctx) => {
    const { provider, channel } = await authenticate(ctx);
    const token = bearerToken(ctx);
    if (!provider.auth || !token || !(await tokens.holds(provider.id, token))) {
      throw new AppError('unauthorized_client', 'The Authorization header does not carry a token this service holds');
    }
    await receive(ctx, provider, channel);
  });
}
