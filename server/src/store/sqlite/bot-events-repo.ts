import type { Db } from './db.ts';
import { loggedBody, toBotEvent, type BotEventRecord, type BotEventRow, type BotEventsRepo } from '../bot-events.ts';

/** The log of what bot providers sent us, per chat (what we sent them is in the deliveries). */
export function createBotEventsRepo(db: Db): BotEventsRepo {
  const q = {
    insert: db.prepare(
      'INSERT INTO bot_events (provider_id, chat_id, event, body_json, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    byChat: db.prepare<[number], BotEventRow>('SELECT * FROM bot_events WHERE chat_id = ? ORDER BY id'),
  };
  return {
    async log(e: Omit<BotEventRecord, 'id' | 'createdAt'>): Promise<void> {
      q.insert.run(e.providerId, e.chatId, e.event, loggedBody(e.body), e.status, e.error, Date.now());
    },
    async listByChat(chatId: number): Promise<BotEventRecord[]> {
      return q.byChat.all(chatId).map(toBotEvent);
    },
  };
}
