import type { ConversationStore } from '../conversation/conversation-store.ts';
import type { InboxStore } from '../inbox/inbox-store.ts';
import type { PageVisibility } from './page-visibility.ts';

interface ReadMarkerDeps {
  conversation: ConversationStore;
  inbox: InboxStore;
  visibility: PageVisibility;
  /** `POST /api/v1/chats/:id/read` */
  markRead: (chatId: number, messageId: number) => Promise<void>;
}

/**
 * Tells the server what the agent has seen: the newest message of the open chat, each time it changes while
 * the tab is visible (and when the tab is shown again), so counts survive a reload and follow the agent.
 * Returns the stop function.
 */
export function startReadMarker({ conversation, inbox, visibility, markRead }: ReadMarkerDeps): () => void {
  const sent = new Map<number, number>();

  const check = () => {
    const { chatId, status, messages } = conversation.state.get();
    if (chatId === null || status !== 'ready' || !visibility.isVisible()) return;
    inbox.markRead(chatId);
    const newest = messages.reduce((max, m) => Math.max(max, m.id), 0);
    if (newest <= (sent.get(chatId) ?? 0)) return;
    sent.set(chatId, newest);
    // A failed mark is tried again with the next change; meanwhile only the count after a reload is off.
    markRead(chatId, newest).catch(() => {
      if (sent.get(chatId) === newest) sent.delete(chatId);
    });
  };

  const stopConversation = conversation.state.subscribe(check);
  const stopVisibility = visibility.subscribe(check);
  check();
  return () => {
    stopConversation();
    stopVisibility();
  };
}
