import type { Db } from './db.ts';
import type { MessageRecord } from '../records.ts';
import { messageSelect, toMessage, type MessageRow } from '../rows.ts';
import { toMessagesPage, type MessagesPage, type MessagesRepo } from '../messages.ts';

export function createMessagesRepo(db: Db): MessagesRepo {
  const q = {
    byChat: db.prepare<[number], MessageRow>(`${messageSelect} WHERE m.chat_id = ? AND m.internal = 0 ORDER BY m.id`),
    forAgents: db.prepare<[number], MessageRow>(`${messageSelect} WHERE m.chat_id = ? ORDER BY m.id`),
    // newest first, one more than asked to tell whether older ones exist
    pageForAgents: db.prepare<[number, number, number], MessageRow>(
      `${messageSelect} WHERE m.chat_id = ? AND m.id < ? ORDER BY m.id DESC LIMIT ?`,
    ),
    pageForClient: db.prepare<[number, number, number], MessageRow>(
      `${messageSelect} WHERE m.chat_id = ? AND m.id < ? AND m.internal = 0 ORDER BY m.id DESC LIMIT ?`,
    ),
    byId: db.prepare<[number], MessageRow>(`${messageSelect} WHERE m.id = ?`),
  };
  return {
    async listByChat(chatId: number): Promise<MessageRecord[]> {
      return q.byChat.all(chatId).map(toMessage);
    },
    async listForAgents(chatId: number): Promise<MessageRecord[]> {
      return q.forAgents.all(chatId).map(toMessage);
    },
    async pageByChat(chatId: number, limit: number, before: number | null, audience: 'forAgents' | 'forClient'): Promise<MessagesPage> {
      const query = audience === 'forAgents' ? q.pageForAgents : q.pageForClient;
      return toMessagesPage(query.all(chatId, before ?? Number.MAX_SAFE_INTEGER, limit + 1).map(toMessage), limit);
    },
    async findById(id: number): Promise<MessageRecord | undefined> {
      const row = q.byId.get(id);
      return row && toMessage(row);
    },
  };
}
