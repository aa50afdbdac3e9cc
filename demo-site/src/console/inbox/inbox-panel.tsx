import type { ChatState } from '@svc/protocol';
import { useRef } from 'preact/hooks';
import { CallList } from '../calls/call-list.tsx';
import { upsertCall } from '../calls/calls-store.ts';
import { useStore } from '../lib/use-store.ts';
import { SearchBox } from '../search/search-box.tsx';
import type { ConsoleSession } from '../live/console-session.ts';
import { unreadInTab } from '../unread/unread-totals.ts';
import { ChatListItem } from './chat-list-item.tsx';
import { LoadMoreChats } from './load-more-chats.tsx';
import { chatsInTab, tabCount } from './inbox-store.ts';
import { OfflineList } from './offline-list.tsx';

/** The inbox's tabs: chats by state, and the offline form's messages. */
export type InboxTab = ChatState | 'offline' | 'calls';

const TABS: { state: InboxTab; label: string }[] = [
  { state: 'open', label: 'Open' },
  { state: 'bot', label: 'With bot' },
  { state: 'closed', label: 'Closed' },
  { state: 'offline', label: 'Offline' },
  { state: 'calls', label: 'Calls' },
];

interface InboxPanelProps {
  session: ConsoleSession;
  tab: InboxTab;
  onTab: (tab: InboxTab) => void;
}

/** The unified inbox: chats of every channel of the agent, by state, newest activity first. */
export function InboxPanel({ session, tab, onTab }: InboxPanelProps) {
  const inbox = useStore(session.inbox.state);
  const { chatId } = useStore(session.conversation.state);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const offline = useStore(session.offline);
  const calls = useStore(session.calls);
  const chats = tab === 'offline' || tab === 'calls' ? [] : chatsInTab(inbox, tab);

  // WAI-ARIA tabs pattern: arrow keys move between the tabs, only the selected one is in the tab order.
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const index = (TABS.findIndex((t) => t.state === tab) + step + TABS.length) % TABS.length;
    onTab(TABS[index]!.state);
    tabRefs.current[index]?.focus();
  };

  return (
    <section class="inbox" aria-label="Inbox">
      <SearchBox session={session} />
      <div class="tabs" role="tablist" aria-label="Chats by state" onKeyDown={onKeyDown}>
        {TABS.map((t, i) => {
          const count =
            t.state === 'offline'
              ? offline.length
              : t.state === 'calls'
                ? calls.filter((c) => c.status !== 'end' && c.status !== 'error').length
                : tabCount(inbox, t.state);
          const unread = t.state === 'offline' || t.state === 'calls' ? 0 : unreadInTab(inbox, t.state);
          return (
            <button
              key={t.state}
              ref={(el) => void (tabRefs.current[i] = el)}
              type="button"
              role="tab"
              id={`tab-${t.state}`}
              aria-selected={tab === t.state}
              aria-controls="inbox-chats"
              tabIndex={tab === t.state ? 0 : -1}
              class="tab"
              onClick={() => onTab(t.state)}
            >
              {t.label}
              {count > 0 && <span class="tab-count">{count}</span>}
              {unread > 0 && (
                <span class="tab-unread">
                  <span class="sr-only">, </span>
                  {unread}
                  <span class="sr-only"> unread</span>
                </span>
              )}
            </button>
          );
        })}
      </div>
      <div id="inbox-chats" role="tabpanel" aria-labelledby={`tab-${tab}`} class="inbox-chats">
        {inbox.error && (
          <p class="form-error" role="alert">
            {inbox.error}
          </p>
        )}
        {inbox.status === 'loading' && <p class="muted empty">Loading chats…</p>}
        {tab === 'offline' && <OfflineList messages={offline} />}
        {tab === 'calls' && (
          <CallList calls={calls} api={session.api} onChanged={(call) => session.calls.update((list) => upsertCall(list, call))} />
        )}
        {tab !== 'offline' && tab !== 'calls' && inbox.status === 'ready' && chats.length === 0 && (
          <p class="muted empty">No chats here.</p>
        )}
        <ul class="chat-list">
          {chats.map((chat) => (
            <ChatListItem
              key={chat.id}
              chat={chat}
              unread={inbox.unread.get(chat.id) ?? 0}
              fresh={inbox.fresh.has(chat.id)}
              selected={chat.id === chatId}
              meId={session.me.id}
              onOpen={() => session.openChat(chat.id)}
            />
          ))}
        </ul>
        {tab !== 'offline' && tab !== 'calls' && inbox.tabs[tab].next !== null && (
          <LoadMoreChats key={`${tab} ${inbox.tabs[tab].next}`} onVisible={() => void session.inboxPaging.loadMore(tab)} />
        )}
      </div>
    </section>
  );
}
