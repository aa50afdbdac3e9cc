import type { ChatState } from '@svc/protocol';
import type { InboxState } from '../inbox/inbox-store.ts';

/** Unread client messages over every chat the inbox holds: the page title's count. */
export function totalUnread(inbox: InboxState): number {
  let sum = 0;
  for (const n of inbox.unread.values()) sum += n;
  return sum;
}

/** Unread client messages of the chats in one tab: the tab label's count. */
export function unreadInTab(inbox: InboxState, tab: ChatState): number {
  let sum = 0;
  for (const [chatId, n] of inbox.unread) if (inbox.chats.get(chatId)?.state === tab) sum += n;
  return sum;
}
