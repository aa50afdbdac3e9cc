import type { Db } from './db.ts';

export interface BotEventRecord {
  id: number;
  providerId: number;
  chatId: number | null;
  event: string;
  body: unknown;
  status: number;
  error: string | null;
  createdAt: number;
}

export interface BotEventRow {
  id: number;
  provider_id: number;
  chat_id: number | null;
  event: string;
  body_json: string;
  status: number;
  error: string | null;
  created_at: number;
}

export const toBotEvent = (r: BotEventRow): BotEventRecord => ({
  id: r.id,
  providerId: r.provider_id,
  chatId: r.chat_id,
  event: r.event,
  body: JSON.parse(r.body_json) as unknown,
  status: r.status,
  error: r.error,
  createdAt: r.created_at,
});

/** The log of what bot providers sent us, per chat (what we sent them is in the deliveries). */
export function createBotEventsRepo(db: Db) {
  const q = {
    insert: db.prepare(
      'INSERT INTO bot_events (provider_id, chat_id, event, body_json, status, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    byChat: db.prepare<[number], BotEventRow>('SELECT * FROM bot_events WHERE chat_id = ? ORDER BY id'),
  };
  return {
    async log(e: Omit<BotEventRecord, 'id' | 'createdAt'>): Promise<void> {
      q.insert.run(e.providerId, e.chatId, e.event, JSON.stringify(e.body ?? null).slice(0, 64 * 1024), e.status, e.error, Date.now());
    },
    async listByChat(chatId: number): Promise<BotEventRecord[]> {
      return q.byChat.all(chatId).map(toBotEvent);
    },
  };
}
export type BotEventsRepo = ReturnType<typeof createBotEventsRepo>;
