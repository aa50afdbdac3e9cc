import { toMessagesPage, type MessagesRepo } from '../messages.ts';
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
    async pageByChat(chatId, limit, before, audience) {
      const notes = audience === 'forAgents' ? '' : 'AND m.internal = 0';
      const rows = await db.all<MessageRow>(`${messageSelect} WHERE m.chat_id = $1 AND m.id < $2 ${notes} ORDER BY m.id DESC LIMIT $3`, [
        chatId,
        before ?? Number.MAX_SAFE_INTEGER,
        limit + 1,
      ]);
      return toMessagesPage(rows.map(toMessage), limit);
    },
    async findById(id) {
      const row = await db.one<MessageRow>(`${messageSelect} WHERE m.id = $1`, [id]);
      return row && toMessage(row);
    },
  };
}
