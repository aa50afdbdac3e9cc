import type Router from '@koa/router';
import { searchQuerySchema, searchWords, type SearchResultsView } from '@svc/protocol';
import { iso } from '../conversations/views.ts';
import { currentAgent, requireAgent } from '../http/auth.ts';
import { parseOr400 } from '../http/validate.ts';
import type { Store } from '../store/store.ts';
import { snippetOf } from './snippet.ts';

/**
 * `GET /api/v1/search` (rest-api.md "Agents' daily tools"): every word of `q` in a message (private notes too:
 * agents wrote them) or in the client's name, e-mail or phone, in the chats the caller's inbox may list.
 */
export function registerSearchRoutes(router: Router, deps: { store: Store }): void {
  const { store } = deps;

  router.get('/api/v1/search', requireAgent(store), async (ctx) => {
    const { q, limit } = parseOr400(searchQuerySchema, ctx.query, 'query');
    const words = searchWords(q);
    const hits = await store.search.search(currentAgent(ctx).id, words, limit);
    const body: SearchResultsView = {
      results: hits.map((hit) => {
        const snippet = snippetOf(hit.text, words);
        return {
          chat_id: hit.chatId,
          message_id: hit.messageId,
          match: hit.match,
          snippet: snippet.text,
          highlights: snippet.highlights,
          created_at: iso(hit.createdAt),
          client_name: hit.clientName,
        };
      }),
    };
    ctx.body = body;
  });
}
