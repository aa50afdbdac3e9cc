import { useEffect } from 'preact/hooks';
import { chatsInTab } from '../inbox/inbox-store.ts';
import type { InboxTab } from '../inbox/inbox-panel.tsx';
import type { ConsoleSession } from '../live/console-session.ts';
import { isTextField, shortcutFor, type ShortcutAction } from './console-shortcuts.ts';

const REPLY_BOX_ID = 'reply-text';

interface ShortcutDeps {
  win: Window & typeof globalThis;
  session: ConsoleSession;
  /** The inbox tab shown: next and previous follow its list. */
  tab: InboxTab;
  /** Whether the chats are on screen (not the admin panel). */
  active: boolean;
  onShowShortcuts: () => void;
}

/** The console's keyboard shortcuts, listened to on the whole page while the chats are shown. */
export function useConsoleShortcuts({ win, session, tab, active, onShowShortcuts }: ShortcutDeps): void {
  useEffect(() => {
    if (!active) return;
    const doc = win.document;
    const focusSelectedChat = () => doc.querySelector<HTMLElement>('.inbox [aria-current="true"]')?.focus();

    const step = (by: 1 | -1) => {
      if (tab === 'offline' || tab === 'calls') return;
      const chats = chatsInTab(session.inbox.state.get(), tab);
      if (chats.length === 0) return;
      const at = chats.findIndex((chat) => chat.id === session.conversation.currentId());
      const next = at === -1 ? (by === 1 ? 0 : chats.length - 1) : Math.min(Math.max(at + by, 0), chats.length - 1);
      const wasReplying = doc.activeElement?.id === REPLY_BOX_ID;
      session.openChat(chats[next]!.id);
      // Keep the keyboard where it was: from the reply box to the next chat's (shown once it has loaded),
      // elsewhere along with the chat in the list.
      if (wasReplying) whenLoaded(() => doc.getElementById(REPLY_BOX_ID)?.focus());
      else requestAnimationFrame(focusSelectedChat);
    };
    const whenLoaded = (then: () => void) => {
      const stop = session.conversation.state.subscribe((state) => {
        if (state.status === 'loading') return;
        stop();
        requestAnimationFrame(then);
      });
    };

    const run: Record<ShortcutAction, () => void> = {
      'next-chat': () => step(1),
      'previous-chat': () => step(-1),
      'focus-reply': () => doc.getElementById(REPLY_BOX_ID)?.focus(),
      'focus-search': () => doc.querySelector<HTMLInputElement>('.search-input')?.focus(),
      'leave-reply': () => {
        (doc.activeElement as HTMLElement | null)?.blur();
        focusSelectedChat();
      },
      'show-shortcuts': onShowShortcuts,
    };

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.isComposing || doc.querySelector('dialog[open]')) return;
      const target = event.target instanceof Element ? event.target : null;
      const action = shortcutFor({
        key: event.key,
        altKey: event.altKey,
        ctrlKey: event.ctrlKey,
        metaKey: event.metaKey,
        defaultPrevented: event.defaultPrevented,
        inTextField: isTextField(target),
        inReplyBox: target?.id === REPLY_BOX_ID,
      });
      if (!action) return;
      event.preventDefault();
      run[action]();
    };
    doc.addEventListener('keydown', onKeyDown);
    return () => doc.removeEventListener('keydown', onKeyDown);
  }, [win, session, tab, active, onShowShortcuts]);
}
