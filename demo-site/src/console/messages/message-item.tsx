import type { ChatView, MessageView } from '@svc/protocol';
import { formatTime } from '../lib/format-time.ts';
import { MessageBody } from './message-body.tsx';

/** Who wrote the message, as the agent reads it. */
export function authorName(message: MessageView, chat: ChatView, meId: number): string {
  switch (message.author) {
    case 'client':
      return chat.client.display_name;
    case 'agent':
      return message.agent_id === meId ? 'You' : (message.agent_name ?? 'Agent');
    case 'bot':
      return 'Bot';
    default:
      return 'System';
  }
}

/** Where an agent message is on its way to the customer; a failure says why, as the integrator put it,
 * and can be sent again. */
function DeliveryState({ message, onResend }: { message: MessageView; onResend: ((messageId: number) => void) | undefined }) {
  const failed = message.delivery === 'failed';
  return (
    <span class="msg-delivery">
      <span class={`delivery delivery--${message.delivery}`} data-delivery={message.delivery}>
        {message.delivery}
      </span>
      {failed && message.error && <span class="delivery-error">{message.error}</span>}
      {failed && onResend && (
        <button type="button" class="link-button" onClick={() => onResend(message.id)}>
          Resend
        </button>
      )}
    </span>
  );
}

interface MessageItemProps {
  message: MessageView;
  chat: ChatView;
  meId: number;
  /** Absent when the chat is closed. */
  onResend?: (messageId: number) => void;
  /** The message the agent was taken to (a search result): marked until another is. */
  focused?: boolean;
}

export function MessageItem({ message, chat, meId, onResend, focused = false }: MessageItemProps) {
  const outgoing = message.author === 'agent' || message.author === 'bot';
  return (
    <li
      class={`msg msg--${message.author} ${outgoing ? 'msg--out' : 'msg--in'}${message.internal ? ' msg--internal' : ''}${focused ? ' msg--focused' : ''}`}
      data-message-id={message.id}
    >
      <div class="msg-head">
        <span class="msg-author">{authorName(message, chat, meId)}</span>
        {message.internal && message.author === 'agent' && <span class="msg-internal-label">Private note</span>}
        <time class="msg-time" dateTime={message.created_at} title={new Date(message.created_at).toLocaleString()}>
          {formatTime(message.created_at)}
        </time>
      </div>
      <div class="msg-bubble">
        <MessageBody message={message} />
      </div>
      {message.author === 'agent' && !message.internal && <DeliveryState message={message} onResend={onResend} />}
    </li>
  );
}
