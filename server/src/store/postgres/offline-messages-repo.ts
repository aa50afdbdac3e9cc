import { offlineMessageSelect, toOfflineMessage, type OfflineMessageRow, type OfflineMessagesRepo } from '../offline-messages.ts';
import { pgDeliveryCtes } from './insert-delivery.ts';
import type { PgDb } from './pg-db.ts';

const insertMessage = (id: string) =>
  `INSERT INTO offline_messages (id, channel_id, client_id, name, email, phone, description, message, created_at)
   VALUES (${id}, $1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`;
const selectInserted = 'SELECT o.*, c.external_key AS visitor_key FROM o LEFT JOIN clients c ON c.id = o.client_id';

export function createPgOfflineMessagesRepo(db: PgDb): OfflineMessagesRepo {
  return {
    // One statement, its own transaction: the message, and with it (accepted means it will be sent) its
    // offline_message webhook, whose payload carries the message's id, drawn just before.
    async add(m, webhook) {
      const now = Date.now();
      const message = [m.channelId, m.clientId, m.name, m.email, m.phone, m.description, m.message, now];
      if (!webhook) {
        const row = await db.one<OfflineMessageRow>(`WITH o AS (${insertMessage('DEFAULT')}) ${selectInserted}`, message);
        return toOfflineMessage(row!);
      }
      const id = (await db.value<number>("SELECT nextval(pg_get_serial_sequence('offline_messages', 'id'))"))!;
      const delivery = pgDeliveryCtes({ ...webhook(id), chatId: null, messageId: null }, now, 'o', 10);
      const row = await db.one<OfflineMessageRow>(`WITH o AS (${insertMessage('$9')}), ${delivery.sql} ${selectInserted}`, [
        ...message,
        id,
        ...delivery.params,
      ]);
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
