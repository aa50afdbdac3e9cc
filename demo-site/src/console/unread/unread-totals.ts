import type { ChatState } from '@svc/protocol';
import type { InboxState } from '../inbox/inbox-store.ts';

/** Unread client messages of the chats in one tab: the tab label's count. Closed chats wait for no answer,
 * so their tab has none (each closed chat still shows its own). */
export function unreadInTab(inbox: InboxState, tab: ChatState): number {
  if (tab === 'closed') return 0;
  let sum = 0;
  for (const [chatId, n] of inbox.unread) if (inbox.chats.get(chatId)?.state === tab) sum += n;
  return sum;
}

/** Unread client messages of the chats waiting for an answer (open and with a bot): the page title's count. */
export function totalUnread(inbox: InboxState): number {
  return unreadInTab(inbox, 'open') + unreadInTab(inbox, 'bot');
}
