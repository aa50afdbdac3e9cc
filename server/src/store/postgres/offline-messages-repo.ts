import { offlineMessageSelect, toOfflineMessage, type OfflineMessageRow, type OfflineMessagesRepo } from '../offline-messages.ts';
import { randomToken } from '../../lib/secrets.ts';
import { pgDeliveryCtes, splitAtMark } from './insert-delivery.ts';
import { retryingStatement, type PgDb } from './pg-db.ts';

const insertMessage = `INSERT INTO offline_messages (channel_id, client_id, name, email, phone, description, message, created_at)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`;
const selectInserted = 'SELECT o.*, c.external_key AS visitor_key FROM o LEFT JOIN clients c ON c.id = o.client_id';

export function createPgOfflineMessagesRepo(db: PgDb): OfflineMessagesRepo {
  return {
    // One statement, its own transaction: the message and, with it (accepted means it will be sent), its
    // offline_message webhook. The payload carries the message's id, known only as the row is written: it is
    // built around a random mark (no party's text can hold it) that the statement replaces with the id.
    async add(m, webhook) {
      const now = Date.now();
      const message = [m.channelId, m.clientId, m.name, m.email, m.phone, m.description, m.message, now];
      if (!webhook) return toOfflineMessage((await db.one<OfflineMessageRow>(`WITH o AS (${insertMessage}) ${selectInserted}`, message))!);
      const sourceIdMark = `offline-message-id-${randomToken(16)}`;
      const sourced = splitAtMark({ ...webhook(sourceIdMark), chatId: null, messageId: null }, now, sourceIdMark, 1)!;
      const delivery = pgDeliveryCtes([sourced], { source: 'source', from: message.length + 1, messageIdFromSource: false });
      const sql = `WITH o AS (${insertMessage}), source AS (SELECT o.id, 1 AS ord FROM o), ${delivery.sql} ${selectInserted}`;
      const row = await retryingStatement(() => db.one<OfflineMessageRow>(sql, [...message, ...delivery.params]));
      return toOfflineMessage(row!);
    },
    async listForAgent(agentId, limit = 200) {
      const rows = await db.all<OfflineMessageRow>(
        `${offlineMessageSelect} JOIN channels ch ON ch.id = o.channel_id
         WHERE ch.deleted_at IS NULL AND o.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = $1)
         ORDER BY o.id DESC LIMIT $2`,
        [agentId, limit],
      );
      return rows.map(toOfflineMessage);
    },
  };
}
