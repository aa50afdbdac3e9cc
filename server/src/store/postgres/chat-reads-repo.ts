import type { ChatReadsRepo } from '../chat-reads.ts';
import type { PgDb } from './pg-db.ts';

export function createPgChatReadsRepo(db: PgDb): ChatReadsRepo {
  return {
    async markRead(agentId, chatId, messageId) {
      await db.run(
        `INSERT INTO chat_reads (agent_id, chat_id, message_id) VALUES ($1, $2, $3)
         ON CONFLICT (agent_id, chat_id) DO UPDATE SET message_id = GREATEST(chat_reads.message_id, excluded.message_id)`,
        [agentId, chatId, messageId],
      );
    },
    async unreadCounts(agentId, chatIds) {
      if (chatIds.length === 0) return new Map();
      const rows = await db.all<{ chat_id: number; n: number }>(
        `SELECT m.chat_id, COUNT(*)::int AS n FROM messages m
         LEFT JOIN chat_reads r ON r.chat_id = m.chat_id AND r.agent_id = $1
         WHERE m.chat_id = ANY($2::bigint[]) AND m.author = 'client' AND m.id > COALESCE(r.message_id, 0)
         GROUP BY m.chat_id`,
        [agentId, chatIds],
      );
      return new Map(rows.map((r) => [Number(r.chat_id), r.n]));
    },
    async otherChatsOfClient(chatId, limit) {
      const rows = await db.all<{ id: number }>(
        'SELECT id FROM chats WHERE client_id = (SELECT client_id FROM chats WHERE id = $1) AND id != $1 ORDER BY id DESC LIMIT $2',
        [chatId, limit],
      );
      return rows.map((r) => Number(r.id));
    },
  };
}
