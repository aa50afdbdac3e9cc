import type { Db } from './db.ts';
import type { ChatReadsRepo } from '../chat-reads.ts';

export function createChatReadsRepo(db: Db): ChatReadsRepo {
  const q = {
    mark: db.prepare<[number, number, number]>(
      `INSERT INTO chat_reads (agent_id, chat_id, message_id) VALUES (?, ?, ?)
       ON CONFLICT (agent_id, chat_id) DO UPDATE SET message_id = MAX(message_id, excluded.message_id)`,
    ),
    unread: db.prepare<[number, string], { chat_id: number; n: number }>(
      `SELECT m.chat_id, COUNT(*) AS n FROM messages m
       LEFT JOIN chat_reads r ON r.chat_id = m.chat_id AND r.agent_id = ?
       WHERE m.chat_id IN (SELECT value FROM json_each(?)) AND m.author = 'client' AND m.id > COALESCE(r.message_id, 0)
       GROUP BY m.chat_id`,
    ),
    others: db.prepare<[number, number, number], number>(
      `SELECT id FROM chats WHERE client_id = (SELECT client_id FROM chats WHERE id = ?) AND id != ? ORDER BY id DESC LIMIT ?`,
    ),
  };
  return {
    async markRead(agentId, chatId, messageId) {
      q.mark.run(agentId, chatId, messageId);
    },
    async unreadCounts(agentId, chatIds) {
      if (chatIds.length === 0) return new Map();
      return new Map(q.unread.all(agentId, JSON.stringify(chatIds)).map((r) => [r.chat_id, r.n]));
    },
    async otherChatsOfClient(chatId, limit) {
      return q.others.pluck().all(chatId, chatId, limit);
    },
  };
}
