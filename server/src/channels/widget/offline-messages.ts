import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { offlineMessageSchema, type WebhookPayload } from '@svc/protocol';
import type { DomainEvents } from '../../conversations/domain-events.ts';
import { offlineMessageView } from '../../conversations/views.ts';
import { currentAgent, requireAgent } from '../../http/auth.ts';
import { notFound, rateLimited } from '../../http/errors.ts';
import { routePattern, type DirectRoute } from '../../http/lane-by-prefix.ts';
import { sourceAddress, type RateLimits } from '../../http/rate-limits.ts';
import { parseOr400 } from '../../http/validate.ts';
import { newEventId } from '../../lib/random-id.ts';
import { hashToken } from '../../lib/secrets.ts';
import { receiverOf } from '../../store/deliveries.ts';
import type { Store } from '../../store/store.ts';
import type { ChannelLookupCache } from '../channel-lookup-cache.ts';
import { visitorFields } from '../../webhooks/webhook-payloads.ts';
import { WEBHOOK_DELIVERY, WEBHOOK_RETRIES } from '../../webhooks/webhook-sender.ts';

const blank = (v: string | undefined) => (v ? v : null);

const LEAVE = routePattern('/widget-api/:publicId/offline-messages');

/**
 * The offline form (spec 4.4 sendOfflineMessage): a visitor leaves a message while no agent is online. It is
 * stored, shown to the channel's agents, and sent as the offline_message webhook (written with it). Returns the
 * form's POST as a route that runs ahead of the router (http/lane-by-prefix.ts).
 */
export function registerOfflineMessageRoutes(
  router: Router,
  deps: { store: Store; events: DomainEvents; rateLimits: RateLimits; channelLookup: Pick<ChannelLookupCache, 'byPublicId'> },
): DirectRoute[] {
  const { store, events, rateLimits, channelLookup } = deps;

  router.options('/widget-api/:publicId/offline-messages', (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Allow-Headers', 'content-type, x-visitor-token');
    ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
    ctx.status = 204;
  });

  const leave: Middleware = async (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    // From the cache the Chat API reads too: a change made on another node reaches it a moment later, and a
    // message left in that moment is taken as it would have been just before the change.
    const channel = await channelLookup.byPublicId(ctx.params.publicId!);
    if (!channel || channel.kind !== 'widget') throw notFound('No such widget');
    if (!(await rateLimits.offlineMessages.take(sourceAddress(ctx)))) throw rateLimited(60);
    const m = parseOr400(offlineMessageSchema, ctx.request.body);
    const token = ctx.get('x-visitor-token');
    const visitor = token ? await store.visitors.findByToken(channel.id, hashToken(token)) : undefined;
    const withWebhook = channel.webhookUrl && channel.webhookEvents.includes('offline_message');
    const eventId = newEventId();
    const orderingKey = `webhook-offline:${channel.id}`;
    // spec 6.2 offline_message: no chat_id and no department.
    const base = withWebhook ? await visitorFields(store, channel, visitor ?? null, 'offline_message', eventId) : undefined;
    const saved = await store.offlineMessages.add(
      {
        channelId: channel.id,
        clientId: visitor?.id ?? null,
        name: blank(m.name),
        email: blank(m.email),
        phone: blank(m.phone),
        description: blank(m.description),
        message: m.message,
      },
      base
        ? (offlineMessageId) => {
            const payload: WebhookPayload = {
              ...base,
              visitor: {
                ...base.visitor,
                ...(m.name ? { name: m.name } : {}),
                ...(m.email ? { email: m.email } : {}),
                ...(m.phone ? { phone: m.phone } : {}),
              },
              event_name: 'offline_message',
              offline_message_id: offlineMessageId,
              message: m.message,
            };
            return {
              kind: WEBHOOK_DELIVERY,
              channelId: channel.id,
              url: channel.webhookUrl!,
              payload,
              maxAttempts: 1 + WEBHOOK_RETRIES,
              eventId,
              orderingKey,
            };
          }
        : null,
    );
    if (base) events.emit('delivery.enqueued', { orderingKey, receiver: receiverOf({ channel_id: channel.id, kind: WEBHOOK_DELIVERY }) });
    events.emit('offline.created', { message: saved });
    ctx.status = 201;
    ctx.body = { result: 'ok', offline_message_id: String(saved.id) };
  };
  router.post(LEAVE.path, leave);

  router.get('/api/v1/offline-messages', requireAgent(store), async (ctx) => {
    ctx.body = { offline_messages: (await store.offlineMessages.listForAgent(currentAgent(ctx).id)).map(offlineMessageView) };
  });

  return [{ method: 'POST', ...LEAVE, handler: leave }];
}
