import type { ChatView } from '@svc/protocol';
import { formatTime } from '../lib/format-time.ts';
import { messagePreview } from '../messages/message-preview.ts';
import { ChannelBadge } from './channel-badge.tsx';

interface ChatListItemProps {
  chat: ChatView;
  unread: number;
  fresh: boolean;
  selected: boolean;
  meId: number;
  onOpen: () => void;
}

function authorPrefix(last: ChatView['last_message'], meId: number): string {
  if (last?.author === 'agent') return last.agent_id === meId ? 'You: ' : 'Agent: ';
  return last?.author === 'bot' ? 'Bot: ' : '';
}

export function ChatListItem({ chat, unread, fresh, selected, meId, onOpen }: ChatListItemProps) {
  const last = chat.last_message;
  const preview = messagePreview(last);
  const when = last?.created_at ?? chat.created_at;
  return (
    <li class={`chat-item ${fresh ? 'is-fresh' : ''} ${selected ? 'is-selected' : ''} ${unread > 0 ? 'has-unread' : ''}`}>
      <button type="button" class="chat-item-button" aria-current={selected ? 'true' : undefined} onClick={onOpen}>
        <span class="chat-item-top">
          <span class="chat-item-name">{chat.client.display_name}</span>
          <time class="chat-item-time" dateTime={when}>
            {formatTime(when)}
          </time>
        </span>
        <ChannelBadge name={chat.channel_name} kind={chat.channel_kind} />
        <span class="chat-item-bottom">
          <span class="chat-item-preview">
            {authorPrefix(last, meId)}
            {preview}
          </span>
          {unread > 0 && (
            <span class="unread-badge">
              {unread}
              <span class="sr-only"> unread</span>
            </span>
          )}
          {fresh && <span class="new-badge">New</span>}
        </span>
      </button>
    </li>
  );
}
