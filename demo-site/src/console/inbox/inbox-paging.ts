import type { ChatState } from '@svc/protocol';
import type { ApiClient } from '../api/api-client.ts';
import { errorText } from '../api/api-error.ts';
import type { FirstPages, InboxStore } from './inbox-store.ts';

/** Chats per page of a tab: a screenful or two, so a tab opens at once whatever the inbox's size. */
export const CHATS_PER_PAGE = 50;
const RECOUNT_DELAY_MS = 400;
const chatStates: readonly ChatState[] = ['open', 'bot', 'closed'];

export async function fetchFirstPages(api: ApiClient): Promise<FirstPages> {
  const pages = await Promise.all(chatStates.map((state) => api.listChats(state, CHATS_PER_PAGE)));
  return Object.fromEntries(chatStates.map((state, i) => [state, pages[i]!])) as FirstPages;
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
