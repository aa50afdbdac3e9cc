import type { Db } from './db.ts';
import type { MessageSearchIndex } from './message-search-index.ts';
import type { WriteBatcher } from './write-batcher.ts';
import {
  newestHits,
  PREFIX_FROM,
  SEARCH_FIRST_WINDOW,
  SEARCH_WINDOW_GROWTH,
  toClientHit,
  toMessageHit,
  type SearchHitRow,
  type SearchRepo,
} from '../search.ts';
import { visibleChannelsSql } from '../chats.ts';

/** An FTS5 query that only ever holds words: each one a quoted string (so `NEAR`, `AND`, `-` are plain words), the
 * last one also a prefix. Every word must be there. */
export function fts5Query(words: string[]): string {
  return words.map((w, i) => (i === words.length - 1 && [...w].length >= PREFIX_FROM ? `"${w}"*` : `"${w}"`)).join(' ');
}

export function createSearchRepo(db: Db, writes: WriteBatcher, index: MessageSearchIndex): SearchRepo {
  // The FTS table drives both queries, newest row first. FTS5 reads a word's whole list of rows to walk it
  // backwards, so messages are searched in windows of the newest rows (`rowid > @floor` bounds that list).
  const messages = db.prepare<{ query: string; agent: number; limit: number; floor: number }, SearchHitRow>(
    `SELECT m.chat_id, m.id AS message_id, m.text, m.created_at, cl.name AS client_name
     FROM messages_search s
     JOIN messages m ON m.id = s.rowid
     JOIN chats c ON c.id = m.chat_id
     JOIN clients cl ON cl.id = c.client_id
     WHERE messages_search MATCH @query AND s.rowid > @floor AND c.channel_id IN (${visibleChannelsSql('@agent')})
     ORDER BY s.rowid DESC LIMIT @limit`,
  );
  const newest = db.prepare<[], number>('SELECT COALESCE(MAX(id), 0) FROM messages').pluck();
  const clients = db.prepare<{ query: string; agent: number; limit: number }, SearchHitRow>(
    `SELECT c.id AS chat_id, c.last_message_id AS message_id, COALESCE(lm.created_at, c.created_at) AS created_at,
       cl.name AS client_name, cl.email AS client_email, cl.phone AS client_phone
     FROM clients_search s
     JOIN clients cl ON cl.id = s.rowid
     JOIN chats c ON c.client_id = cl.id
     LEFT JOIN messages lm ON lm.id = c.last_message_id
     WHERE clients_search MATCH @query AND c.channel_id IN (${visibleChannelsSql('@agent')})
     ORDER BY COALESCE(c.last_message_id, 0) DESC, c.id DESC LIMIT @limit`,
  );

  return {
    async search(agentId, words, limit) {
      if (index.behind()) await writes.run(index.catchUp);
      const params = { query: fts5Query(words), agent: agentId, limit };
      const top = newest.get() ?? 0;
      let found: SearchHitRow[] = [];
      for (let window = SEARCH_FIRST_WINDOW; ; window *= SEARCH_WINDOW_GROWTH) {
        const floor = top - window;
        found = messages.all({ ...params, floor });
        if (found.length >= limit || floor <= 0) break;
      }
      return newestHits(found.map(toMessageHit), clients.all(params).map(toClientHit), limit);
    },
  };
}
