import type { ChatState, ChatView } from '@svc/protocol';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import { formatTime } from '../lib/format-time.ts';
import { messagePreview } from '../messages/message-preview.ts';
import './earlier-chats.css';

const stateLabels: Record<ChatState, string> = { open: 'Open', bot: 'With bot', closed: 'Closed' };

interface EarlierChatsProps {
  chatId: number;
  /** `GET /api/v1/chats/:id/history`: the same client's other chats in the channel, newest first. */
  loadHistory: (chatId: number) => Promise<ChatView[]>;
  /** Opens the chat in place of the current one (a closed chat shows without a reply box). */
  onOpen: (chatId: number) => void;
}

type Loaded = { chatId: number; chats: ChatView[] } | { chatId: number; error: string };

/** The client's earlier chats in the side panel: when, in which state, and how each ended, as text. */
export function EarlierChats({ chatId, loadHistory, onOpen }: EarlierChatsProps) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    let current = true;
    loadHistory(chatId).then(
      (chats) => current && setLoaded({ chatId, chats }),
      (err: unknown) => current && setLoaded({ chatId, error: errorText(err) }),
    );
    return () => void (current = false);
  }, [chatId, loadHistory]);

  const ready = loaded?.chatId === chatId ? loaded : null;
  return (
    <section class="earlier-chats" aria-labelledby="earlier-chats-title">
      <h3 id="earlier-chats-title">Earlier chats</h3>
      {!ready && <p class="muted">Loading…</p>}
      {ready && 'error' in ready && (
        <p class="form-error" role="alert">
          {ready.error}
        </p>
      )}
      {ready && 'chats' in ready && ready.chats.length === 0 && <p class="muted">No earlier chats with this client.</p>}
      {ready && 'chats' in ready && ready.chats.length > 0 && (
        <ul class="earlier-chat-list">
          {ready.chats.map((chat) => (
            <li key={chat.id}>
              <button type="button" class="earlier-chat" onClick={() => onOpen(chat.id)}>
                <span class="earlier-chat-top">
                  <time dateTime={chat.created_at}>{formatTime(chat.created_at)}</time>
                  <span class={`earlier-chat-state earlier-chat-state--${chat.state}`}>{stateLabels[chat.state]}</span>
                </span>
                <span class="earlier-chat-preview">{messagePreview(chat.last_message) || 'No messages'}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
