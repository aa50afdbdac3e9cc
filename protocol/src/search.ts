import { z } from 'zod';

/** `GET /api/v1/search` (rest-api.md "Agents' daily tools"): words in messages and in clients' name, e-mail, phone. */

/** A query longer than this is no search anyone types (issue 17: a search of 10 KB answers 400). */
export const SEARCH_QUERY_MAX = 200;
/** Words past this many add nothing a person would notice and only make the query slower. */
export const SEARCH_WORDS_MAX = 8;
export const SEARCH_LIMIT_DEFAULT = 20;

// A word is what both stores' tokenizers keep together: letters, digits and the marks that join them. Everything
// else (`"`, `*`, `-`, `@`, `NEAR(...)`'s brackets) separates words, so nothing of the query reaches the index's
// own syntax.
export const searchWordPattern = /[\p{L}\p{N}\p{M}]+/gu;
const hasLetterOrDigit = /[\p{L}\p{N}]/u;

/** The words of a search, in the order typed, at most `SEARCH_WORDS_MAX`. `"café-bar" NEAR` → `café`, `bar`, `NEAR`. */
export function searchWords(q: string): string[] {
  const words = q.normalize('NFC').match(searchWordPattern) ?? [];
  return words.filter((w) => hasLetterOrDigit.test(w)).slice(0, SEARCH_WORDS_MAX);
}

export const searchQuerySchema = z.object({
  q: z
    .string()
    .max(SEARCH_QUERY_MAX, `must be at most ${SEARCH_QUERY_MAX} characters`)
    .refine((q) => searchWords(q).length > 0, 'must hold at least one word (letters or digits)'),
  limit: z.coerce.number().int().min(1).max(100).default(SEARCH_LIMIT_DEFAULT),
});

/** A part of `snippet` that matched a word of the search: `snippet.slice(start, end)` (UTF-16 offsets). */
export const searchHighlightSchema = z.object({ start: z.number().int(), end: z.number().int() });
export type SearchHighlight = z.infer<typeof searchHighlightSchema>;

export const searchResultViewSchema = z.object({
  chat_id: z.number().int(),
  /** The message that matched; for a match on the client, the chat's newest message (null when it has none). */
  message_id: z.number().int().nullable(),
  /** What matched: a message's text (private notes included), or the client's name, e-mail or phone. */
  match: z.enum(['message', 'client']),
  /** Plain text (never HTML): the matching words with some context. */
  snippet: z.string(),
  highlights: z.array(searchHighlightSchema),
  /** The message's time (ISO 8601, as every view of the agent API); for a client match, the chat's newest message's. */
  created_at: z.string(),
  /** The chat's client, as the inbox names them. */
  client_name: z.string().nullable(),
});
export type SearchResultView = z.infer<typeof searchResultViewSchema>;

/** `GET /api/v1/search`: newest first. */
export const searchResultsViewSchema = z.object({ results: z.array(searchResultViewSchema) });
export type SearchResultsView = z.infer<typeof searchResultsViewSchema>;
