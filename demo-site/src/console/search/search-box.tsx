import { searchWords, SEARCH_QUERY_MAX, type SearchResultView } from '@svc/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import type { ConsoleSession } from '../live/console-session.ts';
import { formatTime } from '../lib/format-time.ts';
import { HighlightedSnippet } from './highlighted-snippet.tsx';
import { openSearchResult } from './open-result.ts';
import './search.css';

/** Typing pauses this long before the search is asked for: one request per word typed, not per key. */
const TYPING_PAUSE_MS = 250;
const RESULTS = 30;

type Found =
  { status: 'idle' } | { status: 'searching' } | { status: 'done'; results: SearchResultView[] } | { status: 'error'; error: string };

/** One search box over every chat the agent may see (issue 17): messages, private notes, and customers' name,
 * e-mail and phone. Opening a result opens its chat at the message. */
export function SearchBox({ session }: { session: ConsoleSession }) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found>({ status: 'idle' });
  const [shown, setShown] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const asked = ++seq.current;
    if (searchWords(query).length === 0) return setFound({ status: 'idle' });
    setFound({ status: 'searching' });
    const timer = setTimeout(() => {
      session.tools.search(query, RESULTS).then(
        (results) => asked === seq.current && setFound({ status: 'done', results }),
        (err: unknown) => asked === seq.current && setFound({ status: 'error', error: errorText(err) }),
      );
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const open = (result: SearchResultView) => {
    setShown(false);
    void openSearchResult(session, result);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    setQuery('');
    setShown(false);
  };

  return (
    <div class="search" role="search" onKeyDown={onKeyDown}>
      <input
        type="search"
        class="search-input"
        aria-label="Search chats"
        placeholder="Search messages, names, e-mails…"
        maxLength={SEARCH_QUERY_MAX}
        value={query}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setShown(true);
        }}
        onFocus={() => setShown(true)}
      />
      {shown && found.status !== 'idle' && (
        <div class="search-results" aria-label="Search results" aria-busy={found.status === 'searching'}>
          {found.status === 'searching' && <p class="muted empty">Searching…</p>}
          {found.status === 'error' && (
            <p class="form-error" role="alert">
              {found.error}
            </p>
          )}
          {found.status === 'done' && found.results.length === 0 && <p class="muted empty">No chats hold these words.</p>}
          {found.status === 'done' && found.results.length > 0 && (
            <ul class="search-result-list">
              {found.results.map((r) => (
                <li key={`${r.match} ${r.chat_id} ${r.message_id}`}>
                  <button type="button" class="search-result" onClick={() => open(r)}>
                    <span class="search-result-top">
                      <span class="search-result-name">{r.client_name ?? 'Customer'}</span>
                      <time class="search-result-time" dateTime={r.created_at}>
                        {formatTime(r.created_at)}
                      </time>
                    </span>
                    <HighlightedSnippet text={r.snippet} highlights={r.highlights} />
                    {r.match === 'client' && <span class="search-result-kind muted">Customer details</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
