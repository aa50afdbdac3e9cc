import type { SearchResultView } from '@svc/protocol';
import type { ConsoleSession } from '../live/console-session.ts';

/** How long the message a result points at stays marked in the conversation. */
const FOCUS_MS = 3000;

const nextFrame = (win: Window) => new Promise<void>((resolve) => win.requestAnimationFrame(() => resolve()));

/** Resolves once the open conversation is `chatId`'s and has loaded (or failed, or another chat was opened). */
function loaded(session: ConsoleSession, chatId: number): Promise<boolean> {
  return new Promise((resolve) => {
    const check = (s = session.conversation.state.get()) => {
      if (s.chatId !== chatId || s.status === 'error') return (stop?.(), resolve(false), true);
      if (s.status === 'ready') return (stop?.(), resolve(true), true);
      return false;
    };
    let stop: (() => void) | undefined;
    if (!check()) stop = session.conversation.state.subscribe((s) => void check(s));
  });
}

/**
 * Opens the result's chat (its newest page first, as any chat opens), loads the pages back to the message that
 * matched, and scrolls it into the middle of the view, marked for a moment. A client match opens the chat as is.
 */
export async function openSearchResult(session: ConsoleSession, result: SearchResultView, win: Window): Promise<void> {
  session.openChat(result.chat_id);
  if (result.match !== 'message' || result.message_id === null) return;
  if (!(await loaded(session, result.chat_id))) return;
  if (!(await session.conversation.loadThrough(result.message_id))) return;
  // after the pages loaded above have rendered (and the list has kept its own scroll position)
  await nextFrame(win);
  await nextFrame(win);
  if (session.conversation.currentId() !== result.chat_id) return;
  const item = win.document.querySelector<HTMLElement>(`.message-log [data-message-id="${result.message_id}"]`);
  if (!item) return;
  item.scrollIntoView({ block: 'center' });
  item.classList.add('search-focus');
  win.setTimeout(() => item.classList.remove('search-focus'), FOCUS_MS);
}
