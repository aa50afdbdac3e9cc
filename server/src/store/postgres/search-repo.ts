import type { PgDb } from './pg-db.ts';
import { newestHits, PREFIX_FROM, toClientHit, toMessageHit, visibleChannelsSql, type SearchHitRow, type SearchRepo } from '../search.ts';

// The words become a tsquery in SQL: each one folded by the index's own `search_words` and quoted as a literal (so
// no word is tsquery syntax), joined by `&`; `$2` is `:*` when the last word is also a prefix.
const tsQuery = `to_tsquery('simple', array_to_string(ARRAY(SELECT quote_literal(search_words(w)) FROM unnest($1::text[]) AS w), ' & ') || $2)`;

// The expressions of the GIN indexes (search-schema.ts), written exactly as there so the planner uses them.
const messageWords = `to_tsvector('simple', search_words(COALESCE(m.text, '')))`;
const clientWords = `to_tsvector('simple', search_words(COALESCE(cl.name, '') || ' ' || COALESCE(cl.email, '') || ' ' || COALESCE(cl.phone, '')))`;

const messagesSql = `
  SELECT m.chat_id, m.id AS message_id, m.text, m.created_at, cl.name AS client_name
  FROM messages m
  JOIN chats c ON c.id = m.chat_id
  JOIN clients cl ON cl.id = c.client_id
  WHERE ${messageWords} @@ ${tsQuery} AND c.channel_id IN (${visibleChannelsSql('$3')})
  ORDER BY m.id DESC LIMIT $4`;

const clientsSql = `
  SELECT c.id AS chat_id, c.last_message_id AS message_id, COALESCE(lm.created_at, c.created_at) AS created_at,
    cl.name AS client_name, cl.email AS client_email, cl.phone AS client_phone
  FROM clients cl
  JOIN chats c ON c.client_id = cl.id
  LEFT JOIN messages lm ON lm.id = c.last_message_id
  WHERE ${clientWords} @@ ${tsQuery} AND c.channel_id IN (${visibleChannelsSql('$3')})
  ORDER BY COALESCE(c.last_message_id, 0) DESC, c.id DESC LIMIT $4`;

export function createPgSearchRepo(db: PgDb): SearchRepo {
  return {
    async search(agentId, words, limit) {
      const last = words.at(-1) ?? '';
      const params = [words, [...last].length >= PREFIX_FROM ? ':*' : '', agentId, limit];
      const [messages, clients] = await Promise.all([db.all<SearchHitRow>(messagesSql, params), db.all<SearchHitRow>(clientsSql, params)]);
      return newestHits(messages.map(toMessageHit), clients.map(toClientHit), limit);
    },
  };
}
