import type { CreateChannelRequest, UpdateChannelRequest } from '@svc/protocol';
import { invalidRequest, notFound } from '../http/errors.ts';
import { outboundUrlProblem, type UrlPolicy } from '../lib/outbound-url.ts';
import { randomToken } from '../lib/secrets.ts';
import { newSigningSecret } from '../lib/webhook-signature.ts';
import type { ChannelPatch } from '../store/channels.ts';
import type { ChannelRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';

const minutesToMs = (minutes: number | null) => (minutes === null ? null : Math.max(1, Math.round(minutes * 60_000)));

/** Channel administration: creation, update (bot attachment included) and deletion, with every check. */
export function createChannelService(deps: { store: Store; events: DomainEvents; urlPolicy: UrlPolicy }) {
  const { store, events, urlPolicy } = deps;

  async function checkUrl(field: string, url: string | null | undefined) {
    if (!url) return;
    const problem = await outboundUrlProblem(url, urlPolicy);
    if (problem) throw invalidRequest(`${field} ${problem}`);
  }

  async function checkAgents(ids: number[] | undefined) {
    if (!ids || ids.length === 0) return;
    const existing = new Set(await store.agents.existingIds(ids));
    const missing = ids.filter((id) => !existing.has(id));
    if (missing.length > 0) throw invalidRequest(`agent_ids: no agent with id ${missing.join(', ')}`);
  }

  async function announceAgents(channel: ChannelRecord, previous: number[]) {
    const added = channel.agentIds.filter((id) => !previous.includes(id));
    const removed = previous.filter((id) => !channel.agentIds.includes(id));
    if (added.length || removed.length) events.emit('channel.agents', { channelId: channel.id, added, removed });
    events.emit('channel.status', { channelId: channel.id, status: await store.channels.status(channel.id) });
  }

  return {
    async create(request: CreateChannelRequest): Promise<ChannelRecord> {
      await checkUrl('webhook_url', request.webhook_url);
      await checkAgents(request.agent_ids);
      const channel = await store.channels.create({
        publicId: randomToken(9),
        kind: request.kind,
        name: request.name,
        // spec 1.4: the random part of the endpoint protects against brute force.
        randomString: randomToken(24),
        webhookUrl: request.webhook_url ?? null,
        chunked: request.kind === 'chat_api' ? request.chunked : false,
        safeDomains: request.kind === 'widget' ? request.safe_domains : [],
        webhookEvents: request.kind === 'widget' ? request.webhook_events : [],
        agentIds: [...new Set(request.agent_ids)],
        signingSecret: newSigningSecret(),
        callback: request.kind === 'widget' ? (request.callback ?? null) : null,
      });
      if (request.kind === 'widget' && request.allowed_sites.length) await store.channelSites.set(channel.id, request.allowed_sites);
      await announceAgents(channel, []);
      return channel;
    },

    async update(id: number, request: UpdateChannelRequest): Promise<ChannelRecord> {
      const channel = await store.channels.findById(id);
      if (!channel) throw notFound('No such channel');
      if (channel.kind === 'chat_api' && request.webhook_url === null) throw invalidRequest('webhook_url: a Chat API channel needs one');
      if (channel.kind === 'widget' && request.chunked !== undefined) throw invalidRequest('chunked: only Chat API channels have it');
      if (channel.kind === 'chat_api' && request.safe_domains !== undefined)
        throw invalidRequest('safe_domains: only widget channels have them');
      if (channel.kind === 'chat_api' && request.allowed_sites !== undefined)
        throw invalidRequest('allowed_sites: only widget channels have them');
      if (channel.kind === 'chat_api' && request.webhook_events !== undefined)
        throw invalidRequest('webhook_events: only widget channels have them');
      if (channel.kind === 'chat_api' && request.typing_preview !== undefined)
        throw invalidRequest('typing_preview: only widget channels have it');
      if (channel.kind === 'chat_api' && request.callback !== undefined) throw invalidRequest('callback: only widget channels have calls');
      await checkUrl('webhook_url', request.webhook_url);
      await checkAgents(request.agent_ids);
      const patch: ChannelPatch = {
        name: request.name,
        webhookUrl: request.webhook_url,
        chunked: request.chunked,
        safeDomains: request.safe_domains,
        webhookEvents: request.webhook_events,
        agentIds: request.agent_ids && [...new Set(request.agent_ids)],
        callback: request.callback,
        typingPreview: request.typing_preview,
        autoCloseMs: request.auto_close_minutes === undefined ? undefined : minutesToMs(request.auto_close_minutes),
        retentionMs:
          request.retention_days === undefined ? undefined : request.retention_days && Math.round(request.retention_days * 86_400_000),
      };
      if (request.bot !== undefined) {
        if (request.bot === null) patch.bot = null;
        else {
          const provider = await store.botProviders.findByProviderId(request.bot.provider_id);
          if (!provider) throw invalidRequest(`bot.provider_id: no bot provider ${request.bot.provider_id}`);
          patch.bot = { providerRowId: provider.id, token: request.bot.token };
        }
      }
      const updated = (await store.channels.update(id, patch))!;
      if (request.allowed_sites !== undefined) await store.channelSites.set(id, request.allowed_sites);
      events.emit('channel.updated', { channelId: id });
      await announceAgents(updated, channel.agentIds);
      if (request.callback !== undefined) events.emit('callback.settings', { channelId: id });
      return updated;
    },

    /** A new signing secret; the old one stops being used at once. */
    async rotateSigningSecret(id: number): Promise<ChannelRecord> {
      const updated = await store.channels.update(id, { signingSecret: newSigningSecret() });
      if (!updated) throw notFound('No such channel');
      events.emit('channel.updated', { channelId: id });
      return updated;
    },

    async delete(id: number): Promise<void> {
      const channel = await store.channels.findById(id);
      if (!channel || !(await store.channels.delete(id))) throw notFound('No such channel');
      events.emit('channel.agents', { channelId: id, added: [], removed: channel.agentIds });
      events.emit('channel.deleted', { channelId: id });
    },
  };
}
export type ChannelService = ReturnType<typeof createChannelService>;
