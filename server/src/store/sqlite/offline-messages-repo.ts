import type { Db } from './db.ts';
import { insertDelivery } from './insert-delivery.ts';
import type { NewDelivery } from '../records.ts';
import type { WriteBatcher } from './write-batcher.ts';
import {
  offlineMessageSelect,
  toOfflineMessage,
  type OfflineMessageRecord,
  type OfflineMessageRow,
  type OfflineMessagesRepo,
} from '../offline-messages.ts';

export function createOfflineMessagesRepo(db: Db, writes: WriteBatcher): OfflineMessagesRepo {
  const q = {
    insert: db.prepare(
      `INSERT INTO offline_messages (channel_id, client_id, name, email, phone, description, message, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    visitorKey: db.prepare<[number], string>('SELECT external_key FROM clients WHERE id = ?').pluck(),
    forAgent: db.prepare<[number, number], OfflineMessageRow>(
      `${offlineMessageSelect} JOIN channels ch ON ch.id = o.channel_id
       WHERE ch.deleted_at IS NULL AND o.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = ?)
       ORDER BY o.id DESC LIMIT ?`,
    ),
  };
  // Atomic through the group commit (a savepoint of its own cost every message one more, issue 16), and the
  // record built from what was written rather than read back.
  const add = (
    m: Omit<OfflineMessageRecord, 'id' | 'createdAt' | 'visitorKey'>,
    webhook: ((offlineMessageId: string) => NewDelivery) | null,
  ): OfflineMessageRecord => {
    const now = Date.now();
    // Positional: binding by name from an object costs ~2 us more per row.
    const id = Number(q.insert.run(m.channelId, m.clientId, m.name, m.email, m.phone, m.description, m.message, now).lastInsertRowid);
    // The offline_message webhook is written with the message: accepted means it will be sent.
    if (webhook) insertDelivery(db, { ...webhook(String(id)), chatId: null, messageId: null }, now);
    const visitorKey = m.clientId === null ? null : (q.visitorKey.get(m.clientId) ?? null);
    return { ...m, id, visitorKey, createdAt: now };
  };
  return {
    async add(
      m: Omit<OfflineMessageRecord, 'id' | 'createdAt' | 'visitorKey'>,
      webhook: ((offlineMessageId: string) => NewDelivery) | null,
    ): Promise<OfflineMessageRecord> {
      return writes.run(() => add(m, webhook));
    },
    async listForAgent(agentId: number, limit = 200): Promise<OfflineMessageRecord[]> {
      return q.forAgent.all(agentId, limit).map(toOfflineMessage);
    },
  };
}
