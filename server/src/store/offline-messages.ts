import type { NewDelivery } from './records.ts';

export interface OfflineMessageRecord {
  id: number;
  channelId: number;
  clientId: number | null;
  visitorKey: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  message: string;
  createdAt: number;
}

export interface OfflineMessageRow {
  id: number;
  channel_id: number;
  client_id: number | null;
  visitor_key: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  description: string | null;
  message: string;
  created_at: number;
}

export const toOfflineMessage = (r: OfflineMessageRow): OfflineMessageRecord => ({
  id: r.id,
  channelId: r.channel_id,
  clientId: r.client_id,
  visitorKey: r.visitor_key,
  name: r.name,
  email: r.email,
  phone: r.phone,
  description: r.description,
  message: r.message,
  createdAt: r.created_at,
});

export const offlineMessageSelect =
  'SELECT o.*, c.external_key AS visitor_key FROM offline_messages o LEFT JOIN clients c ON c.id = o.client_id';

export interface OfflineMessagesRepo {
  /**
   * Stores an offline message and, when `webhook` is given, the delivery it builds in the same transaction.
   * `webhook` gets the message's id as the text its payload carries, and may use it there only: a repository
   * may pass a placeholder, which must then occur once in the payload's JSON, and put the id in its place as
   * it writes the row.
   */
  add(
    m: Omit<OfflineMessageRecord, 'id' | 'createdAt' | 'visitorKey'>,
    webhook: ((offlineMessageId: string) => NewDelivery) | null,
  ): Promise<OfflineMessageRecord>;
  /** The newest offline messages of the channels the agent serves. */
  listForAgent(agentId: number, limit?: number): Promise<OfflineMessageRecord[]>;
}
