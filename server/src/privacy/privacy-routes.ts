import type Router from '@koa/router';
import type { ClientExport, ErasureList, ErasurePending } from '@svc/protocol';
import { z } from 'zod';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { iso } from '../conversations/views.ts';
import { currentAdminAgent, requireAdmin } from '../http/auth.ts';
import { notFound } from '../http/errors.ts';
import type { PublicUrls } from '../lib/public-urls.ts';
import type { Store } from '../store/store.ts';
import { removeErasedFiles } from './erased-files.ts';

interface PrivacyDeps {
  store: Store;
  events: DomainEvents;
  urls: PublicUrls;
  uploadsDir: string;
  adminTokenHash: string;
}

const id = z.coerce.number().int().positive();
/** Hashes of the customer's secrets say nothing about them and would only help someone impersonate them. */
const secretColumns = new Set(['visitor_token_hash', 'user_token']);

/** A stored row as the export shows it: JSON kept as text becomes JSON again, without the `_json` suffix. */
function readable(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (secretColumns.has(key)) continue;
    if (key.endsWith('_json')) out[key.slice(0, -5)] = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
    else if (key.endsWith('_at') && typeof value === 'number') out[key] = iso(value);
    else out[key] = value;
  }
  return out;
}

/** A customer's data on request (GDPR articles 15, 17 and 20) and the audit log of erasures; admins only. */
export function registerPrivacyRoutes(router: Router, deps: PrivacyDeps): void {
  const { store } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);
  const params = (raw: Record<string, string | undefined>) => {
    const channel = id.safeParse(raw.id);
    if (!channel.success || !raw.client_id) throw notFound('No such customer in this channel');
    return { channelId: channel.data, clientId: raw.client_id };
  };

  router.get('/api/v1/channels/:id/clients/:client_id/export', admin, async (ctx) => {
    const { channelId, clientId } = params(ctx.params);
    const rows = await store.privacy.exportClient(channelId, clientId);
    if (!rows) throw notFound('No such customer in this channel');
    ctx.set('Content-Disposition', `attachment; filename="customer-${channelId}.json"`);
    ctx.body = {
      exported_at: new Date().toISOString(),
      client: readable(rows.client),
      chats: rows.chats.map((chat) => ({
        ...readable(chat),
        messages: rows.messages.filter((m) => m.chat_id === chat.id).map(readable),
      })),
      calls: rows.calls.map(readable),
      offline_messages: rows.offlineMessages.map(readable),
    } satisfies ClientExport;
  });

  router.delete('/api/v1/channels/:id/clients/:client_id', admin, async (ctx) => {
    const { channelId, clientId } = params(ctx.params);
    const agent = currentAdminAgent(ctx);
    const erased = await store.privacy.eraseClient(channelId, clientId, agent ? `agent ${agent.id} (${agent.email})` : 'admin token');
    if (!erased) throw notFound('No such customer in this channel');
    deps.events.emit('client.erased', { channelId, clientId: erased.clientId, chatIds: erased.chatIds });
    await removeErasedFiles(erased.media, deps.uploadsDir, deps.urls);
    if (!erased.walPending) {
      ctx.status = 204;
      return;
    }
    ctx.status = 202;
    ctx.body = {
      wal_pending: true,
      message:
        'The customer is erased from the database and the uploaded files, but the database’s files still hold a copy of the erased ' +
        'text: another process is reading the database (a backup?), which keeps the write-ahead log from being emptied. The server ' +
        'empties it as soon as that reader is done.',
    } satisfies ErasurePending;
  });

  router.get('/api/v1/erasures', admin, async (ctx) => {
    ctx.body = {
      erasures: (await store.privacy.listErasures(500)).map((e) => ({
        id: e.id,
        at: iso(e.createdAt),
        reason: e.reason,
        actor: e.actor,
        channel_id: e.channelId,
        client_id: e.clientKey,
        counts: e.counts,
        state: e.completedAt === null ? 'pending' : 'complete',
        completed_at: e.completedAt === null ? null : iso(e.completedAt),
      })),
    } satisfies ErasureList;
  });
}
