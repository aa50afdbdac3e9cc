import type { Db } from './db.ts';
import { insertDelivery } from './deliveries-repo.ts';
import type { NewDelivery } from './records.ts';
import type { WriteBatcher } from './write-batcher.ts';

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

export function createOfflineMessagesRepo(db: Db, writes: WriteBatcher) {
  const q = {
    insert: db.prepare(
      `INSERT INTO offline_messages (channel_id, client_id, name, email, phone, description, message, created_at)
       VALUES (@channelId, @clientId, @name, @email, @phone, @description, @message, @now)`,
    ),
    byId: db.prepare<[number], OfflineMessageRow>(`${offlineMessageSelect} WHERE o.id = ?`),
    forAgent: db.prepare<[number, number], OfflineMessageRow>(
      `${offlineMessageSelect} JOIN channels ch ON ch.id = o.channel_id
       WHERE ch.deleted_at IS NULL AND o.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = ?)
       ORDER BY o.id DESC LIMIT ?`,
    ),
  };
  const add = db.transaction(
    (m: Omit<OfflineMessageRecord, 'id' | 'createdAt' | 'visitorKey'>, webhook: ((id: number) => NewDelivery) | null) => {
      const now = Date.now();
      const id = Number(q.insert.run({ ...m, now }).lastInsertRowid);
      // The offline_message webhook is written with the message: accepted means it will be sent.
      if (webhook) insertDelivery(db, { ...webhook(id), chatId: null, messageId: null }, now);
      return toOfflineMessage(q.byId.get(id)!);
    },
  );
  return {
    async add(
      m: Omit<OfflineMessageRecord, 'id' | 'createdAt' | 'visitorKey'>,
      webhook: ((id: number) => NewDelivery) | null,
    ): Promise<OfflineMessageRecord> {
      return writes.run(() => add(m, webhook));
    },
    /** The newest offline messages of the channels the agent serves. */
    async listForAgent(agentId: number, limit = 200): Promise<OfflineMessageRecord[]> {
      return q.forAgent.all(agentId, limit).map(toOfflineMessage);
    },
  };
}
export type OfflineMessagesRepo = ReturnType<typeof createOfflineMessagesRepo>;
