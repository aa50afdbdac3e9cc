import type { PgDb, PgSql } from './pg-db.ts';
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

// The words become a tsquery in SQL: each one folded by the index's own `search_words` and quoted as a literal (so
// no word is tsquery syntax), joined by `&`; `$2` is `:*` when the last word is also a prefix.
const tsQuerySql = `SELECT to_tsquery('simple', array_to_string(ARRAY(SELECT quote_literal(search_words(w)) FROM unnest($1::text[]) AS w), ' & ') || $2)::text`;

// The expressions of the GIN indexes (search-schema.ts), written exactly as there so that they are used.
const messageWords = `to_tsvector('simple', search_words(COALESCE(text, '')))`;
const clientWords = `to_tsvector('simple', search_words(COALESCE(name, '') || ' ' || COALESCE(email, '') || ' ' || COALESCE(phone, '')))`;

const messageIdsSql = `SELECT id FROM messages WHERE ${messageWords} @@ $1::tsquery AND id > $2`;

const messagesSql = `
  SELECT m.chat_id, m.id AS message_id, m.text, m.created_at, cl.name AS client_name
  FROM messages m
  JOIN chats c ON c.id = m.chat_id
  JOIN clients cl ON cl.id = c.client_id
  WHERE m.id = ANY($1::bigint[]) AND c.channel_id IN (${visibleChannelsSql('$2')})
  ORDER BY m.id DESC LIMIT $3`;

const clientsSql = `
  WITH matched AS MATERIALIZED (SELECT id FROM clients WHERE ${clientWords} @@ $1::tsquery)
  SELECT c.id AS chat_id, a.last_message_id AS message_id, COALESCE(lm.created_at, c.created_at) AS created_at,
    cl.name AS client_name, cl.email AS client_email, cl.phone AS client_phone
  FROM clients cl
  JOIN chats c ON c.client_id = cl.id
  JOIN chat_activity a ON a.id = c.id
  LEFT JOIN messages lm ON lm.id = a.last_message_id
  WHERE cl.id IN (SELECT id FROM matched) AND c.channel_id IN (${visibleChannelsSql('$2')})
  ORDER BY COALESCE(a.last_message_id, 0) DESC, c.id DESC LIMIT $3`;

/** A word matched by at most this many messages is searched in one pass: all its rows, newest first. */
const FEW_MATCHES = 2_000;

/**
 * The ids that match, read from the GIN index only. Why not one `ORDER BY id DESC LIMIT n` query: PostgreSQL's
 * estimate of how many rows a prefix (`word:*`) or a rare word matches is often far off, and a wrong guess makes
 * it walk the whole table backwards recomputing every message's words (seconds on a million rows). Reading the
 * index as a bitmap costs what the matches cost, whatever the guess.
 */
async function matchingIds(sql: PgSql, idsSql: string, params: unknown[]): Promise<number[]> {
  const rows = await withScansOff(sql, ['enable_indexscan', 'enable_seqscan'], () => sql.all<{ id: number }>(idsSql, params));
  return rows.map((r) => r.id);
}

/** The clients' hits in one statement, the matching clients staying in PostgreSQL (a prefix may match most of
 * them). A GIN index is only ever read as a bitmap; what has to be ruled out is the sequential scan that a wrong
 * estimate picks, which recomputes every client's words. */
function clientHits(sql: PgSql, query: string, agentId: number, limit: number): Promise<SearchHitRow[]> {
  return withScansOff(sql, ['enable_seqscan'], () => sql.all<SearchHitRow>(clientsSql, [query, agentId, limit]));
}

/** Runs `read` with the planner's `scans` settings off for this transaction only, then on again. */
async function withScansOff<T>(sql: PgSql, scans: string[], read: () => Promise<T>): Promise<T> {
  const set = (value: string) => `SELECT ${scans.map((s) => `set_config('${s}', '${value}', true)`).join(', ')}`;
  await sql.run(set('off'));
  const result = await read();
  await sql.run(set('on'));
  return result;
}

export function createPgSearchRepo(db: PgDb): SearchRepo {
  /** Newest first: the newest messages first; when they hold too few hits, a rare word's matches all at once,
   * else a common word's in windows growing until `limit` visible hits. */
  async function messages(sql: PgSql, query: string, agentId: number, limit: number) {
    const newest = (await sql.value<number>('SELECT COALESCE(MAX(id), 0) FROM messages')) ?? 0;
    const inWindow = async (floor: number) =>
      sql.all<SearchHitRow>(messagesSql, [await matchingIds(sql, messageIdsSql, [query, floor]), agentId, limit]);
    const first = await inWindow(newest - SEARCH_FIRST_WINDOW);
    if (first.length >= limit || newest <= SEARCH_FIRST_WINDOW) return first;
    const few = await matchingIds(sql, `${messageIdsSql} LIMIT $3`, [query, 0, FEW_MATCHES + 1]);
    if (few.length <= FEW_MATCHES) return sql.all<SearchHitRow>(messagesSql, [few, agentId, limit]);
    for (let window = SEARCH_FIRST_WINDOW * SEARCH_WINDOW_GROWTH; ; window *= SEARCH_WINDOW_GROWTH) {
      const rows = await inWindow(newest - window);
      if (rows.length >= limit || newest <= window) return rows;
    }
  }

  return {
    async search(agentId, words, limit) {
      const last = words.at(-1) ?? '';
      const query = await db.value<string>(tsQuerySql, [words, [...last].length >= PREFIX_FROM ? ':*' : '']);
      if (!query) return [];
      return db.tx(async (sql) => {
        const messageHits = await messages(sql, query, agentId, limit);
        const clients = await clientHits(sql, query, agentId, limit);
        return newestHits(messageHits.map(toMessageHit), clients.map(toClientHit), limit);
      });
    },
  };
}
