import type { ChatListView, ChatState, ChatView } from '@svc/protocol';
import { createStore } from '../lib/create-store.ts';

export interface InboxState {
  chats: ReadonlyMap<number, ChatView>;
  /** Per chat: the client's messages after this agent's last read (the server's count, then live ones). */
  unread: ReadonlyMap<number, number>;
  /** Chats that appeared while the console was open and that the agent has not opened yet. */
  fresh: ReadonlySet<number>;
  status: 'loading' | 'ready' | 'error';
  error: string | null;
  /** Per tab: how many chats the server counts, and the cursor of the page not loaded yet (null: all loaded). */
  tabs: Readonly<Record<ChatState, TabPaging>>;
}

export interface TabPaging {
  total: number;
  next: string | null;
}

/** The first page of each tab as the API answered it. */
export type FirstPages = Record<ChatState, ChatListView>;

const noPaging: Record<ChatState, TabPaging> = {
  open: { total: 0, next: null },
  bot: { total: 0, next: null },
  closed: { total: 0, next: null },
};
const initial: InboxState = { chats: new Map(), unread: new Map(), fresh: new Set(), status: 'loading', error: null, tabs: noPaging };

const lastActivity = (chat: ChatView) => chat.last_message?.created_at ?? chat.created_at;

/** The chats of one tab, the most recent activity first. */
export function chatsInTab(state: InboxState, tab: ChatState): ChatView[] {
  return [...state.chats.values()]
    .filter((chat) => chat.state === tab)
    .sort((a, b) => lastActivity(b).localeCompare(lastActivity(a)) || b.id - a.id);
}

/** What a tab's badge says: the server's count, or more when live events brought chats it did not count yet. */
export function tabCount(state: InboxState, tab: ChatState): number {
  return Math.max(state.tabs[tab].total, chatsInTab(state, tab).length);
}

/** Newer client message than the one we knew of: the agent has something unread. */
function clientWroteSince(before: ChatView | undefined, after: ChatView): boolean {
  const last = after.last_message;
  return !!last && last.author === 'client' && last.id > (before?.last_message?.id ?? 0);
}

/** The counts `GET /api/v1/chats` gave, the chat being read left out. */
function serverUnread(chats: readonly ChatView[], readingId: number | null): [number, number][] {
  return chats.filter((c) => c.id !== readingId && (c.unread ?? 0) > 0).map((c) => [c.id, c.unread!]);
}

/** The unified inbox: every chat of the agent's channels, whatever its state, with unread counts. */
export function createInboxStore() {
  const state = createStore<InboxState>(initial);
  const patch = (change: Partial<InboxState>) => state.update((s) => ({ ...s, ...change }));
  const withCount = (unread: ReadonlyMap<number, number>, chatId: number, add: number) =>
    new Map(unread).set(chatId, (unread.get(chatId) ?? 0) + add);
  // When each chat last came from a live event, so a list fetched before that cannot undo it.
  let clock = 0;
  const liveAt = new Map<number, number>();

  return {
    state,
    get: (chatId: number) => state.get().chats.get(chatId),

    /** How many chats of each tab are loaded: what a refresh fetches again. */
    loadedCounts(): Record<ChatState, number> {
      const counts: Record<ChatState, number> = { open: 0, bot: 0, closed: 0 };
      for (const chat of state.get().chats.values()) counts[chat.state] += 1;
      return counts;
    },

    /** Call before fetching the lists; hand the answer to `replaceAll` with this mark. */
    beginRefresh: () => ++clock,

    /**
     * The full lists from the API, fetched since `mark`. Chats a live event changed meanwhile keep their
     * live version and count; the others take the server's unread count (per agent, kept across reloads).
     * `readingId` is the chat the agent is looking at: nothing in it is unread.
     */
    replaceAll(pages: FirstPages, mark: number, readingId: number | null) {
      const fetched = Object.values(pages).flatMap((page) => page.chats);
      const tabs = Object.fromEntries(Object.entries(pages).map(([tab, page]) => [tab, { total: page.total, next: page.next }])) as Record<
        ChatState,
        TabPaging
      >;
      state.update((s) => {
        const chats = new Map(fetched.map((c) => [c.id, c]));
        const unread = new Map(serverUnread(fetched, readingId));
        for (const [id, at] of liveAt) {
          const live = s.chats.get(id);
          if (at <= mark || !live) continue;
          chats.set(id, live);
          if (s.unread.has(id)) unread.set(id, s.unread.get(id)!);
          else unread.delete(id);
        }
        let { fresh } = s;
        if (s.status === 'ready') {
          for (const chat of chats.values()) {
            if (chat.id === readingId || s.chats.has(chat.id) || chat.state === 'closed' || !clientWroteSince(undefined, chat)) continue;
            fresh = new Set(fresh).add(chat.id);
          }
        }
        return { chats, unread, fresh, status: 'ready', error: null, tabs };
      });
    },

    /** A further page of a tab, fetched since `mark`: chats a live event changed meanwhile keep their live version. */
    appendPage(tab: ChatState, page: ChatListView, mark: number) {
      state.update((s) => {
        const chats = new Map(s.chats);
        const unread = new Map(s.unread);
        for (const chat of page.chats) {
          if ((liveAt.get(chat.id) ?? 0) > mark && chats.has(chat.id)) continue;
          chats.set(chat.id, chat);
          if (chat.unread) unread.set(chat.id, chat.unread);
        }
        return { ...s, chats, unread, tabs: { ...s.tabs, [tab]: { total: page.total, next: page.next } } };
      });
    },

    /** The server's counts, asked again after live events moved chats between tabs. */
    setTotals(totals: Record<ChatState, number>) {
      state.update((s) => ({
        ...s,
        tabs: Object.fromEntries(Object.entries(s.tabs).map(([tab, p]) => [tab, { ...p, total: totals[tab as ChatState] }])) as Record<
          ChatState,
          TabPaging
        >,
      }));
    },

    /**
     * A chat from a live event or an action; says whether the inbox did not know it yet. A copy older than the one
     * held (its last message before the held one's: a chat's last message only moves forward) is left out and said
     * `stale`: two nodes can relay a chat's updates out of order, when two Chat API messages of the chat were written
     * through each of them one right after the other.
     */
    upsert(chat: ChatView): { added: boolean; clientWrote: boolean; stale: boolean } {
      const before = state.get().chats.get(chat.id);
      if (before?.last_message && chat.last_message && chat.last_message.id < before.last_message.id)
        return { added: false, clientWrote: false, stale: true };
      liveAt.set(chat.id, ++clock);
      patch({ chats: new Map(state.get().chats).set(chat.id, chat) });
      return { added: !before, clientWrote: clientWroteSince(before, chat), stale: false };
    },

    countUnread(chatId: number) {
      patch({ unread: withCount(state.get().unread, chatId, 1) });
    },

    highlight(chatId: number) {
      patch({ fresh: new Set(state.get().fresh).add(chatId) });
    },

    /** The agent opened the chat: nothing in it is unread or new any more. */
    markRead(chatId: number) {
      const { unread, fresh } = state.get();
      if (!unread.has(chatId) && !fresh.has(chatId)) return;
      const nextUnread = new Map(unread);
      nextUnread.delete(chatId);
      const nextFresh = new Set(fresh);
      nextFresh.delete(chatId);
      patch({ unread: nextUnread, fresh: nextFresh });
    },

    fail(message: string) {
      patch({ status: state.get().status === 'ready' ? 'ready' : 'error', error: message });
    },
  };
}
export type InboxStore = ReturnType<typeof createInboxStore>;
