import type { Db } from './db.ts';
import type { MessageRecord } from '../records.ts';
import { messageSelect, toMessage, type MessageRow } from '../rows.ts';
import type { MessagesRepo } from '../messages.ts';

export function createMessagesRepo(db: Db): MessagesRepo {
  const q = {
    byChat: db.prepare<[number], MessageRow>(`${messageSelect} WHERE m.chat_id = ? AND m.internal = 0 ORDER BY m.id`),
    forAgents: db.prepare<[number], MessageRow>(`${messageSelect} WHERE m.chat_id = ? ORDER BY m.id`),
    byId: db.prepare<[number], MessageRow>(`${messageSelect} WHERE m.id = ?`),
  };
  return {
    async listByChat(chatId: number): Promise<MessageRecord[]> {
      return q.byChat.all(chatId).map(toMessage);
    },
    async listForAgents(chatId: number): Promise<MessageRecord[]> {
      return q.forAgents.all(chatId).map(toMessage);
    },
    async findById(id: number): Promise<MessageRecord | undefined> {
      const row = q.byId.get(id);
      return row && toMessage(row);
    },
  };
}
