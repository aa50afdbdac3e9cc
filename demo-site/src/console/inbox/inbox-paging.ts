import type { ChatListView, ChatState } from '@svc/protocol';
import type { ApiClient } from '../api/api-client.ts';
import { errorText } from '../api/api-error.ts';
import type { FirstPages, InboxStore } from './inbox-store.ts';

/** Chats per page of a tab: a screenful or two, so a tab opens at once whatever the inbox's size. */
export const CHATS_PER_PAGE = 50;
const RECOUNT_DELAY_MS = 400;
const chatStates: readonly ChatState[] = ['open', 'bot', 'closed'];

/** The API's largest page, for fetching again as many chats as the agent had loaded. */
const LARGEST_PAGE = 200;

/**
 * Each tab's first page; with `loaded` (after a reconnect), as many chats as the tab had loaded, so the agent
 * who had scrolled down the inbox keeps that list (and the cursor goes on after it) instead of dropping back to
 * the first page.
 */
export async function fetchFirstPages(api: ApiClient, loaded?: Readonly<Record<ChatState, number>>): Promise<FirstPages> {
  const pages = await Promise.all(chatStates.map((state) => fetchChats(api, state, Math.max(CHATS_PER_PAGE, loaded?.[state] ?? 0))));
  return Object.fromEntries(chatStates.map((state, i) => [state, pages[i]!])) as FirstPages;
}

async function fetchChats(api: ApiClient, state: ChatState, count: number): Promise<ChatListView> {
  const first = await api.listChats(state, Math.min(count, LARGEST_PAGE));
  const chats = [...first.chats];
  let { next, total } = first;
  while (next !== null && chats.length < count) {
    const page = await api.listChats(state, Math.min(count - chats.length, LARGEST_PAGE), next);
    chats.push(...page.chats);
    ({ next, total } = page);
  }
  return { chats, next, total };
}

/**
 * Loads a tab's further pages as the agent scrolls, one at a time per tab, and asks the server for the tabs'
 * counts again (once for a burst) after live events moved chats between tabs or brought chats not loaded yet.
 */
export function createInboxPaging(api: ApiClient, inbox: InboxStore) {
  const loading = new Set<ChatState>();
  let recountTimer: ReturnType<typeof setTimeout> | undefined;

  async function recount() {
    try {
      const pages = await Promise.all(chatStates.map((state) => api.listChats(state, 1)));
      inbox.setTotals(Object.fromEntries(chatStates.map((state, i) => [state, pages[i]!.total])) as Record<ChatState, number>);
    } catch {
      // the next event or reconnection counts again
    }
  }

  return {
    async loadMore(tab: ChatState) {
      const cursor = inbox.state.get().tabs[tab].next;
      if (cursor === null || loading.has(tab)) return;
      loading.add(tab);
      const mark = inbox.beginRefresh();
      try {
        inbox.appendPage(tab, await api.listChats(tab, CHATS_PER_PAGE, cursor), mark);
      } catch (err) {
        inbox.fail(errorText(err));
      } finally {
        loading.delete(tab);
      }
    },
    recountSoon() {
      clearTimeout(recountTimer);
      recountTimer = setTimeout(() => void recount(), RECOUNT_DELAY_MS);
    },
    dispose: () => clearTimeout(recountTimer),
  };
}
export type InboxPaging = ReturnType<typeof createInboxPaging>;
