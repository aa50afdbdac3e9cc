import type { Db } from './db.ts';
import type { WriteBatcher } from './write-batcher.ts';
import { loggedBody, toBotEvent, type BotEventRecord, type BotEventRow, type BotEventsRepo } from '../bot-events.ts';

/** The log of what bot providers sent us, per chat (what we sent them is in the deliveries). Written in the group
 * commit: alone, each in-line BOT_MESSAGE's line was a commit of its own, a disk flush that stalled the server. */
export function createBotEventsRepo(db: Db, writes: WriteBatcher): BotEventsRepo {
  const q = {
    insert: db.prepare(
      'INSERT INTO bot_events (provider_id, chat_id, event, body_json, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    byChat: db.prepare<[number], BotEventRow>('SELECT * FROM bot_events WHERE chat_id = ? ORDER BY id'),
  };
  return {
    async log(e: Omit<BotEventRecord, 'id' | 'createdAt'>): Promise<void> {
      const body = loggedBody(e.body);
      await writes.run(() => q.insert.run(e.providerId, e.chatId, e.event, body, e.status, e.error, Date.now()));
    },
    async listByChat(chatId: number): Promise<BotEventRecord[]> {
      return q.byChat.all(chatId).map(toBotEvent);
    },
  };
}
