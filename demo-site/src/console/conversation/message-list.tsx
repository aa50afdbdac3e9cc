import type { ChatView, MessageView } from '@svc/protocol';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { MessageItem } from '../messages/message-item.tsx';

interface MessageListProps {
  chat: ChatView;
  messages: readonly MessageView[];
  /** Older messages exist than the first one shown. */
  hasOlder: boolean;
  loadingOlder: boolean;
  /** The agent scrolled up to the oldest loaded message. */
  onScrolledToTop: () => void;
  meId: number;
  onResend?: (messageId: number) => void;
}

/** How close to the top, in pixels, the older page is asked for: before the agent hits the top. */
const OLDER_MARGIN_PX = 300;

/** The history, announced politely to screen readers as it grows, kept scrolled to the newest message
 * unless the agent scrolled up to read; scrolling up to its top loads the older page above what is read,
 * which stays where it was. */
export function MessageList({ chat, messages, hasOlder, loadingOlder, onScrolledToTop, meId, onResend }: MessageListProps) {
  const log = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  // The first shown message and the height below it, to keep the view still when a page is put above.
  const anchor = useRef<{ firstId: number | undefined; fromBottom: number }>({ firstId: undefined, fromBottom: 0 });

  useLayoutEffect(() => {
    const el = log.current;
    if (!el) return;
    const firstId = messages[0]?.id;
    if (pinned.current) el.scrollTop = el.scrollHeight;
    else if (anchor.current.firstId !== undefined && firstId !== anchor.current.firstId)
      el.scrollTop = el.scrollHeight - anchor.current.fromBottom;
    anchor.current = { firstId, fromBottom: el.scrollHeight - el.scrollTop };
  }, [messages, chat.id]);

  const onScroll = () => {
    const el = log.current;
    if (!el) return;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    anchor.current = { firstId: messages[0]?.id, fromBottom: el.scrollHeight - el.scrollTop };
    if (hasOlder && !loadingOlder && el.scrollTop < OLDER_MARGIN_PX) onScrolledToTop();
  };

  return (
    <div class="message-log" ref={log} role="log" aria-live="polite" aria-label="Messages" tabIndex={0} onScroll={onScroll}>
      {hasOlder && (
        <p class="muted older-messages">
          <button type="button" class="link-button" disabled={loadingOlder} onClick={onScrolledToTop}>
            {loadingOlder ? 'Loading earlier messages…' : 'Load earlier messages'}
          </button>
        </p>
      )}
      {messages.length === 0 ? (
        <p class="muted empty">No messages yet.</p>
      ) : (
        <ol class="messages" aria-busy={loadingOlder}>
          {messages.map((m) => (
            <MessageItem key={m.id} message={m} chat={chat} meId={meId} onResend={onResend} />
          ))}
        </ol>
      )}
    </div>
  );
}
