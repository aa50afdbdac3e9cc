import type { SearchResultView } from '@svc/protocol';
import type { ConsoleSession } from '../live/console-session.ts';

/**
 * Opens the result's chat (its newest page first, as any chat opens); for a message that matched, loads the
 * pages back to it and brings it into view, marked (the conversation's scrollToMessage). A client match opens
 * the chat as is.
 */
export async function openSearchResult(session: ConsoleSession, result: SearchResultView): Promise<void> {
  session.openChat(result.chat_id);
  if (result.match !== 'message' || result.message_id === null) return;
  await session.conversation.scrollToMessage(result.message_id);
}
