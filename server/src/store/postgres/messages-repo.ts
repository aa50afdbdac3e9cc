import type { MessagesRepo } from '../messages.ts';
import { messageSelect, toMessage, type MessageRow } from '../rows.ts';
import type { PgDb } from './pg-db.ts';

export function createPgMessagesRepo(db: PgDb): MessagesRepo {
  return {
    async listByChat(chatId) {
      return (await db.all<MessageRow>(`${messageSelect} WHERE m.chat_id = $1 AND m.internal = 0 ORDER BY m.id`, [chatId])).map(toMessage);
    },
    async listForAgents(chatId) {
      return (await db.all<MessageRow>(`${messageSelect} WHERE m.chat_id = $1 ORDER BY m.id`, [chatId])).map(toMessage);
    },
    async findById(id) {
      const row = await db.one<MessageRow>(`${messageSelect} WHERE m.id = $1`, [id]);
      return row && toMessage(row);
    },
  };
}
