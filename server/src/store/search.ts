/** What matched a search: a message's text, or the name, e-mail and phone of a chat's client. */
export interface SearchHitRecord {
  match: 'message' | 'client';
  chatId: number;
  /** The message that matched; for a client, the chat's newest message (null when it has none). */
  messageId: number | null;
  /** The message's text, or the client's name, e-mail and phone joined by ` · `. */
  text: string;
  createdAt: number;
  clientName: string | null;
}

/**
 * Full-text search over what agents may read: every message (private notes included: they are agents' data)
 * and every client's name, e-mail and phone. The index is kept by the database itself (SQLite FTS5 tables with
 * triggers, PostgreSQL GIN expression indexes), so every insert, change and erasure reaches it with the row.
 */
export interface SearchRepo {
  /**
   * The hits whose words hold every one of `words` (the last also as the start of a word when it has 3 letters
   * or more: the agent may still be typing it), case and Latin diacritics ignored, in chats on the live channels
   * the agent is a member of: newest first, at most `limit` messages and `limit` clients' chats. `words` come
   * from `searchWords` (letters, digits and marks only), so no character of them is the index's syntax.
   */
  search(agentId: number, words: string[], limit: number): Promise<SearchHitRecord[]>;
}

/**
 * Newest first in growing windows: the newest `SEARCH_FIRST_WINDOW` messages are searched first, then this many
 * times more each pass, until `limit` visible hits. A word in half the messages then costs what its newest
 * matches cost, not what all of them do.
 */
export const SEARCH_FIRST_WINDOW = 1_000;
export const SEARCH_WINDOW_GROWTH = 20;

/** The last word is matched as a prefix from this length: shorter prefixes match too much of the index to stay fast. */
export const PREFIX_FROM = 3;

export const clientText = (c: { name: string | null; email: string | null; phone: string | null }) =>
  [c.name, c.email, c.phone].filter((v): v is string => v !== null && v !== '').join(' · ');

export interface SearchHitRow {
  chat_id: number;
  message_id: number | null;
  text: string | null;
  created_at: number;
  client_name: string | null;
  client_email?: string | null;
  client_phone?: string | null;
}

export const toMessageHit = (r: SearchHitRow): SearchHitRecord => ({
  match: 'message',
  chatId: Number(r.chat_id),
  messageId: r.message_id === null ? null : Number(r.message_id),
  text: r.text ?? '',
  createdAt: Number(r.created_at),
  clientName: r.client_name,
});

export const toClientHit = (r: SearchHitRow): SearchHitRecord => ({
  match: 'client',
  chatId: Number(r.chat_id),
  messageId: r.message_id === null ? null : Number(r.message_id),
  text: clientText({ name: r.client_name, email: r.client_email ?? null, phone: r.client_phone ?? null }),
  createdAt: Number(r.created_at),
  clientName: r.client_name,
});

/** Both kinds of hit, newest first, at most `limit`. */
export const newestHits = (messages: SearchHitRecord[], clients: SearchHitRecord[], limit: number) =>
  [...messages, ...clients].sort((a, b) => b.createdAt - a.createdAt || b.chatId - a.chatId).slice(0, limit);
