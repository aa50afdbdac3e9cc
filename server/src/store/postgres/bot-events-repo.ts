import { loggedBody, toBotEvent, type BotEventRow, type BotEventsRepo } from '../bot-events.ts';
import type { PgDb } from './pg-db.ts';

export function createPgBotEventsRepo(db: PgDb): BotEventsRepo {
  return {
    async log(e) {
      await db.run(
        'INSERT INTO bot_events (provider_id, chat_id, event, body_json, status, error, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [e.providerId, e.chatId, e.event, loggedBody(e.body), e.status, e.error, Date.now()],
      );
    },
    async listByChat(chatId) {
      return (await db.all<BotEventRow>('SELECT * FROM bot_events WHERE chat_id = $1 ORDER BY id', [chatId])).map(toBotEvent);
    },
  };
}
