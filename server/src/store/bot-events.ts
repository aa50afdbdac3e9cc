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

const LOGGED_BODY_CHARS = 64 * 1024;

/** The body as logged: a longer one keeps its start inside a marker object, so the log stays valid JSON. */
export function loggedBody(body: unknown): string {
  const json = JSON.stringify(body ?? null);
  return json.length <= LOGGED_BODY_CHARS
    ? json
    : JSON.stringify({ truncated: true, length: json.length, start: json.slice(0, LOGGED_BODY_CHARS) });
}

export interface BotEventsRepo {
  log(e: Omit<BotEventRecord, 'id' | 'createdAt'>): Promise<void>;
  listByChat(chatId: number): Promise<BotEventRecord[]>;
}
