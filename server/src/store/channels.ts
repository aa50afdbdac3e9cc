import type { BusinessHours, CallbackSettings, ChannelKind, WebhookEventName } from '@svc/protocol';
import type { ChannelRecord } from './records.ts';

export interface ChannelRow {
  id: number;
  public_id: string;
  kind: ChannelKind;
  name: string;
  random_string: string;
  webhook_url: string | null;
  chunked: number;
  safe_domains_json: string;
  webhook_events_json: string;
  bot_provider_id: number | null;
  bot_provider_public_id: string | null;
  bot_token: string | null;
  signing_secret: string;
  created_at: number;
  agent_ids_json: string;
  callback_json: string | null;
  auto_close_ms: number | null;
  typing_preview: number;
  retention_ms: number | null;
}

export const toChannel = (r: ChannelRow): ChannelRecord => ({
  id: r.id,
  publicId: r.public_id,
  kind: r.kind,
  name: r.name,
  randomString: r.random_string,
  webhookUrl: r.webhook_url,
  chunked: r.chunked === 1,
  safeDomains: JSON.parse(r.safe_domains_json) as string[],
  webhookEvents: JSON.parse(r.webhook_events_json) as WebhookEventName[],
  bot:
    r.bot_provider_id !== null && r.bot_provider_public_id !== null && r.bot_token !== null
      ? { providerRowId: r.bot_provider_id, providerId: r.bot_provider_public_id, token: r.bot_token }
      : null,
  agentIds: JSON.parse(r.agent_ids_json) as number[],
  signingSecret: r.signing_secret,
  createdAt: r.created_at,
  callback: r.callback_json === null ? null : (JSON.parse(r.callback_json) as CallbackSettings),
  autoCloseMs: r.auto_close_ms === null ? null : Number(r.auto_close_ms),
  typingPreview: r.typing_preview === 1,
  retentionMs: r.retention_ms === null ? null : Number(r.retention_ms),
});

export interface NewChannel {
  publicId: string;
  kind: ChannelKind;
  name: string;
  randomString: string;
  webhookUrl: string | null;
  chunked: boolean;
  safeDomains: string[];
  webhookEvents: WebhookEventName[];
  agentIds: number[];
  signingSecret: string;
  callback?: CallbackSettings | null;
}

export interface ChannelPatch {
  name?: string;
  webhookUrl?: string | null;
  chunked?: boolean;
  safeDomains?: string[];
  webhookEvents?: WebhookEventName[];
  agentIds?: number[];
  bot?: { providerRowId: number; token: string } | null;
  signingSecret?: string;
  callback?: CallbackSettings;
  autoCloseMs?: number | null;
  typingPreview?: boolean;
  /** Milliseconds; null keeps closed chats forever. */
  retentionMs?: number | null;
}

/** The columns a patch changes, with their stored values (both dialects build their UPDATE from these). */
export function channelPatchColumns(patch: ChannelPatch): [string, unknown][] {
  const columns: Record<string, unknown> = {
    name: patch.name,
    webhook_url: patch.webhookUrl,
    chunked: patch.chunked === undefined ? undefined : patch.chunked ? 1 : 0,
    safe_domains_json: patch.safeDomains === undefined ? undefined : JSON.stringify(patch.safeDomains),
    webhook_events_json: patch.webhookEvents === undefined ? undefined : JSON.stringify(patch.webhookEvents),
    signing_secret: patch.signingSecret,
    callback_json: patch.callback === undefined ? undefined : JSON.stringify(patch.callback),
    bot_provider_id: patch.bot === undefined ? undefined : (patch.bot?.providerRowId ?? null),
    bot_token: patch.bot === undefined ? undefined : (patch.bot?.token ?? null),
    auto_close_ms: patch.autoCloseMs,
    typing_preview: patch.typingPreview === undefined ? undefined : patch.typingPreview ? 1 : 0,
    retention_ms: patch.retentionMs,
  };
  return Object.entries(columns).filter(([, v]) => v !== undefined);
}

export interface ChannelsRepo {
  create(channel: NewChannel): Promise<ChannelRecord>;
  findById(id: number): Promise<ChannelRecord | undefined>;
  findByPublicId(publicId: string): Promise<ChannelRecord | undefined>;
  /** Live channels whose attached bot is this provider's. */
  withBot(providerRowId: number): Promise<ChannelRecord[]>;
  /** Live channels whose idle chats the service closes, with how long a chat may stay idle. */
  withAutoClose(): Promise<{ id: number; autoCloseMs: number }[]>;
  list(): Promise<ChannelRecord[]>;
  /** Applies the patch (agent list replaced whole) in one unit of work. */
  update(id: number, patch: ChannelPatch): Promise<ChannelRecord | undefined>;
  /** Deleted channels keep their chats for the archive; their endpoints answer 404. */
  delete(id: number): Promise<boolean>;
  /** spec 3: 1 while one of the channel's agents is online. */
  /** spec 3: 1 while one of the channel's agents is online and its business hours take chats at `now`. */
  status(id: number, now?: Date): Promise<0 | 1>;
  /** The channel's business hours, or null when it has none (always open). */
  businessHours(id: number): Promise<BusinessHours | null>;
  setBusinessHours(id: number, hours: BusinessHours | null): Promise<void>;
  withBusinessHours(): Promise<number[]>;
  /** The channel's identity settings (verified visitors); its secret is made the first time it is asked for. */
  identity(id: number): Promise<{ secret: string; required: boolean }>;
  rotateIdentitySecret(id: number): Promise<void>;
  requireVerifiedUsers(id: number, required: boolean): Promise<void>;
  /** Where the channel's finished chats are e-mailed. */
  transcripts(id: number): Promise<{ archiveEmail: string | null; toCustomer: boolean }>;
  setTranscripts(id: number, patch: { archiveEmail?: string | null; toCustomer?: boolean }): Promise<void>;
}
