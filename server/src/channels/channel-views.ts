import { callbackSettingsSchema, type ChannelView } from '@svc/protocol';

/** What a widget channel whose callback settings were never set shows: calls off, the defaults. */
const DISABLED_CALLBACK = callbackSettingsSchema.parse({});
import { iso } from '../conversations/views.ts';
import type { PublicUrls } from '../lib/public-urls.ts';
import type { ChannelRecord } from '../store/records.ts';

/** `allowedSites`: the widget channel's sites (store.channelSites), kept apart from the channel's row. */
export function channelView(c: ChannelRecord, status: 0 | 1, urls: PublicUrls, allowedSites: string[] = []): ChannelView {
  const common = {
    id: c.id,
    public_id: c.publicId,
    kind: c.kind,
    name: c.name,
    agent_ids: c.agentIds,
    webhook_url: c.webhookUrl,
    random_string: c.randomString,
    status,
    bot: c.bot && { provider_id: c.bot.providerId, token: c.bot.token },
    signing_secret: c.signingSecret,
    created_at: iso(c.createdAt),
    auto_close_minutes: c.autoCloseMs === null ? null : c.autoCloseMs / 60_000,
    retention_days: c.retentionMs === null ? null : c.retentionMs / 86_400_000,
  };
  if (c.kind === 'chat_api') {
    const endpoint = urls.chatApiEndpoint(c.randomString, c.publicId);
    return { ...common, chunked: c.chunked, endpoint, status_url: `${endpoint}/status` };
  }
  return {
    ...common,
    embed: urls.widgetEmbed(c.publicId),
    safe_domains: c.safeDomains,
    allowed_sites: allowedSites,
    webhook_events: c.webhookEvents,
    callback: c.callback ?? DISABLED_CALLBACK,
    typing_preview: c.typingPreview,
  };
}
