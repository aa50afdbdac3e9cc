import { offlineMessageSelect, toOfflineMessage, type OfflineMessageRow, type OfflineMessagesRepo } from '../offline-messages.ts';
import { insertPgDelivery } from './insert-delivery.ts';
import type { PgDb } from './pg-db.ts';

export function createPgOfflineMessagesRepo(db: PgDb): OfflineMessagesRepo {
  return {
    async add(m, webhook) {
      return db.tx(async (sql) => {
        const now = Date.now();
        const id = (await sql.value<number>(
          `INSERT INTO offline_messages (channel_id, client_id, name, email, phone, description, message, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
          [m.channelId, m.clientId, m.name, m.email, m.phone, m.description, m.message, now],
        ))!;
        // The offline_message webhook is written with the message: accepted means it will be sent.
        if (webhook) await insertPgDelivery(sql, { ...webhook(id), chatId: null, messageId: null }, now);
        return toOfflineMessage((await sql.one<OfflineMessageRow>(`${offlineMessageSelect} WHERE o.id = $1`, [id]))!);
      });
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
