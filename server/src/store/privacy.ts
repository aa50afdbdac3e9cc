import type { ErasureCounts } from '@svc/protocol';

export type { ErasureCounts };

export interface ErasureRecord {
  id: number;
  channelId: number;
  clientKey: string | null;
  reason: 'request' | 'retention';
  actor: string;
  counts: ErasureCounts;
  createdAt: number;
  /** Null while the database's files may still hold the erased text (`Erased.walPending`). */
  completedAt: number | null;
}

/** Every row stored about one customer of a channel, as the database holds them. A customer is named by
 * the id agents see (`clients.external_key`). */
export interface ClientRows {
  client: Record<string, unknown>;
  chats: Record<string, unknown>[];
  messages: Record<string, unknown>[];
  calls: Record<string, unknown>[];
  offlineMessages: Record<string, unknown>[];
}

export interface Erased {
  counts: ErasureCounts;
  /** The `media_json` of the erased messages: the caller removes the uploaded files they name. */
  media: string[];
  /** SQLite: the erased text is still in the database's files: another process reading the database (a backup)
   * keeps the write-ahead log from being emptied. The store empties it once it can, and then records the erasure
   * (and every other one pending then) as complete. */
  walPending?: boolean;
}

export interface ErasedExpired extends Erased {
  /** The ids of the erased chats, per channel: agents' consoles drop them. */
  chats: { channelId: number; chatIds: number[] }[];
}

export interface ErasedClient extends Erased {
  /** The erased customer's row id (`clients.id`): the live connections of that visitor are let go. */
  clientId: number;
  /** The ids of the customer's erased chats: agents' consoles drop them. */
  chatIds: number[];
}

export interface PrivacyRepo {
  /** Everything stored about the customer, or undefined when the channel has no such customer. */
  exportClient(channelId: number, clientKey: string): Promise<ClientRows | undefined>;
  /** Erases the customer with their chats, messages, calls, offline messages and deliveries in one unit of
   * work that also writes the audit record. Undefined when the channel has no such customer. */
  eraseClient(channelId: number, clientKey: string, actor: string): Promise<ErasedClient | undefined>;
  /** Erases at most `limit` closed chats older than their channel's retention, in one short unit of work. */
  eraseExpiredChats(now: number, limit: number): Promise<ErasedExpired>;
  /** The newest erasures first. */
  listErasures(limit: number): Promise<ErasureRecord[]>;
}

/**
 * The statements that erase a set of chats and what hangs off them, in an order the foreign keys accept. `chats`
 * is the dialect's subquery for the set's ids.
 */
export const eraseChatsSql = (chats: string) => [
  `DELETE FROM delivery_attempts WHERE delivery_id IN (SELECT id FROM deliveries WHERE chat_id IN (${chats}))`,
  `DELETE FROM deliveries WHERE chat_id IN (${chats})`,
  `DELETE FROM bot_events WHERE chat_id IN (${chats})`,
  `DELETE FROM chat_agents WHERE chat_id IN (${chats})`,
  `DELETE FROM calls WHERE chat_id IN (${chats})`,
  `DELETE FROM messages WHERE chat_id IN (${chats})`,
  `DELETE FROM chats WHERE id IN (${chats})`,
];

export const countChatsSql = (chats: string) => `SELECT
  (SELECT COUNT(*) FROM messages WHERE chat_id IN (${chats})) AS messages,
  (SELECT COUNT(*) FROM deliveries WHERE chat_id IN (${chats})) AS deliveries,
  (SELECT COUNT(*) FROM calls WHERE chat_id IN (${chats})) AS calls`;

export const mediaOfChatsSql = (chats: string) => `SELECT media_json FROM messages WHERE chat_id IN (${chats}) AND media_json IS NOT NULL`;

export const toErasure = (r: {
  id: number;
  channel_id: number;
  client_key: string | null;
  reason: ErasureRecord['reason'];
  actor: string;
  counts_json: string;
  created_at: number;
  completed_at: number | null;
}): ErasureRecord => ({
  id: r.id,
  channelId: r.channel_id,
  clientKey: r.client_key,
  reason: r.reason,
  actor: r.actor,
  counts: JSON.parse(r.counts_json) as ErasureCounts,
  createdAt: r.created_at,
  completedAt: r.completed_at,
});

export const noneErased = (): ErasureCounts => ({
  clients: 0,
  chats: 0,
  messages: 0,
  calls: 0,
  offline_messages: 0,
  deliveries: 0,
  files: 0,
});

export function addCounts(total: ErasureCounts, more: ErasureCounts): void {
  for (const key of Object.keys(total) as (keyof ErasureCounts)[]) total[key] += more[key];
}

/** Expired chats grouped by their channel: each channel's share gets its own audit record. */
export function byChannel(rows: { id: number; channel_id: number }[]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const r of rows) groups.set(r.channel_id, [...(groups.get(r.channel_id) ?? []), r.id]);
  return groups;
}
