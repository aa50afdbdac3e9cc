import type Router from '@koa/router';
import type { Context } from 'koa';
import {
  deliveryListQuerySchema,
  replayRangeSchema,
  type DeliveryKind,
  type DeliveryListView,
  type DeliveryView,
  type ReplayRangeView,
} from '@svc/protocol';
import { z } from 'zod';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { iso } from '../conversations/views.ts';
import { channelFromParam } from '../channels/channel-param.ts';
import { requireAdmin } from '../http/auth.ts';
import { invalidRequest, notFound } from '../http/errors.ts';
import { parseOr400 } from '../http/validate.ts';
import type { DeliveryRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

const id = z.coerce.number().int().positive();

/** At most this many deliveries are replayed by one request; the answer says when more are left. */
const REPLAY_BATCH = 1000;

/**
 * The delivery log of a channel for admins: every outbound request (Chat API deliveries, bot events, server
 * webhooks) with each attempt's status, answer and timing; and replays of failed ones, one or all of a time
 * range. A replay is a new delivery with the same request and the same event id (webhook-id), so a receiver
 * that de-duplicates sees one event however often it is replayed.
 */
export function registerDeliveryLogRoutes(router: Router, deps: { store: Store; events: DomainEvents; adminTokenHash: string }): void {
  const { store, events } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);

  const channelOf = (ctx: Context) => channelFromParam(store, ctx.params.id);

  const present = async (d: DeliveryRecord): Promise<DeliveryView> => ({
    id: d.id,
    kind: d.kind as DeliveryKind,
    event_id: d.eventId,
    chat_id: d.chatId,
    message_id: d.messageId,
    url: d.url,
    payload: d.payload,
    state: d.state,
    last_error: d.lastError,
    replay_of: d.replayOf,
    replayed_by: (await store.deliveries.replaysOf(d.id))[0] ?? null,
    attempts: (await store.deliveries.attempts(d.id)).map((a) => ({
      status: a.status,
      error: a.error,
      answer: a.answer,
      duration_ms: a.durationMs,
      at: iso(a.at),
    })),
    created_at: iso(d.createdAt),
  });

  const replayed = async (created: DeliveryRecord[]) => {
    if (created.length === 0) return;
    events.emit('delivery.enqueued');
    // A Chat API message is pending again: its agents see it.
    for (const d of created)
      if (d.messageId !== null && d.chatId !== null)
        events.emit('message.delivery', {
          chatId: d.chatId,
          channelId: d.channelId,
          messageId: d.messageId,
          delivery: 'pending',
          error: null,
        });
  };

  router.get('/api/v1/channels/:id/deliveries', admin, async (ctx) => {
    const channel = await channelOf(ctx);
    const filter = parseOr400(deliveryListQuerySchema, ctx.query, 'query');
    const rows = await store.deliveries.listByChannel({
      channelId: channel.id,
      kind: filter.kind,
      state: filter.state,
      before: filter.before,
      since: filter.since === undefined ? undefined : Date.parse(filter.since),
      until: filter.until === undefined ? undefined : Date.parse(filter.until),
      limit: filter.limit,
    });
    const body: DeliveryListView = {
      deliveries: await Promise.all(rows.map(present)),
      next_before: rows.length === filter.limit ? rows.at(-1)!.id : null,
    };
    ctx.body = body;
  });

  router.post('/api/v1/channels/:id/deliveries/:deliveryId/replay', admin, async (ctx) => {
    const channel = await channelOf(ctx);
    const deliveryId = id.safeParse(ctx.params.deliveryId);
    const delivery = deliveryId.success ? await store.deliveries.findById(deliveryId.data) : undefined;
    if (!delivery || delivery.channelId !== channel.id) throw notFound('No such delivery');
    if (delivery.state !== 'failed') throw invalidRequest(`Only failed deliveries can be replayed; this one is ${delivery.state}`);
    const [created] = await store.deliveries.replay([delivery.id]);
    if (!created) throw invalidRequest('This delivery was already replayed, or its message was sent again since');
    await replayed([created]);
    ctx.status = 201;
    ctx.body = await present(created);
  });

  router.post('/api/v1/channels/:id/deliveries/replay', admin, async (ctx) => {
    const channel = await channelOf(ctx);
    const body = parseOr400(replayRangeSchema, ctx.request.body);
    const ids = await store.deliveries.replayable({
      channelId: channel.id,
      kind: body.kind,
      since: Date.parse(body.since),
      until: Date.parse(body.until),
      limit: REPLAY_BATCH + 1,
    });
    const created = await store.deliveries.replay(ids.slice(0, REPLAY_BATCH));
    await replayed(created);
    const answer: ReplayRangeView = {
      replayed: created.map((d) => ({ id: d.id, replay_of: d.replayOf, event_id: d.eventId })),
      more: ids.length > REPLAY_BATCH,
    };
    ctx.body = answer;
  });
}
