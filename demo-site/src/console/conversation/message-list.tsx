import type { ChatView, MessageView } from '@svc/protocol';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { MessageItem } from '../messages/message-item.tsx';

interface MessageListProps {
  chat: ChatView;
  messages: readonly MessageView[];
  meId: number;
  onResend?: (messageId: number) => void;
}

/** The history, announced politely to screen readers as it grows, kept scrolled to the newest message
 * unless the agent scrolled up to read. */
export function MessageList({ chat, messages, meId, onResend }: MessageListProps) {
  const log = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);

  useLayoutEffect(() => {
    const el = log.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  }, [messages, chat.id]);

  const onScroll = () => {
    const el = log.current;
    if (el) pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };

  return (
    <div class="message-log" ref={log} role="log" aria-live="polite" aria-label="Messages" tabIndex={0} onScroll={onScroll}>
      {messages.length === 0 ? (
        <p class="muted empty">No messages yet.</p>
      ) : (
        <ol class="messages">
          {messages.map((m) => (
            <MessageItem key={m.id} message={m} chat={chat} meId={meId} onResend={onResend} />
          ))}
        </ol>
      )}
    </div>
  );
}
