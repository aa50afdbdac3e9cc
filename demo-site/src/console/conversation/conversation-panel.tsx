import { ChannelBadge } from '../inbox/channel-badge.tsx';
import { useStore } from '../lib/use-store.ts';
import type { ConsoleSession } from '../live/console-session.ts';
import { ChatActions } from './chat-actions.tsx';
import { ClientDraft } from './client-draft.tsx';
import { MessageList } from './message-list.tsx';
import { ReplyBox } from './reply-box.tsx';

interface ConversationPanelProps {
  session: ConsoleSession;
  detailsOpen: boolean;
  onToggleDetails: () => void;
}

/** The open chat: who, through which channel, the history, the client's typing and the reply box. */
export function ConversationPanel({ session, detailsOpen, onToggleDetails }: ConversationPanelProps) {
  const { chatId, chat, messages, clientTyping, clientDraft, status, error, older, loadingOlder, focus } = useStore(
    session.conversation.state,
  );

  if (chatId === null) {
    return (
      <section class="conversation conversation--empty" aria-label="Conversation">
        <p class="muted">Select a chat to read and answer it.</p>
      </section>
    );
  }

  return (
    <section class="conversation" aria-label="Conversation">
      <header class="conversation-header">
        <button type="button" class="button button--ghost back-button" onClick={() => session.leaveChat()}>
          <span aria-hidden="true">←</span> Inbox
        </button>
        <div class="conversation-who">
          <h2 class="conversation-title">{chat?.client.display_name ?? 'Loading…'}</h2>
          {chat && <ChannelBadge name={chat.channel_name} kind={chat.channel_kind} />}
        </div>
        <button
          type="button"
          class="button button--ghost details-button"
          aria-expanded={detailsOpen}
          aria-controls="client-details"
          onClick={onToggleDetails}
        >
          Details
        </button>
        {chat && <ChatActions session={session} chat={chat} />}
      </header>
      {error && (
        <p class="form-error banner" role="alert">
          {error}
        </p>
      )}
      {chat && status !== 'loading' ? (
        <MessageList
          chat={chat}
          messages={messages}
          hasOlder={older !== null}
          loadingOlder={loadingOlder}
          onScrolledToTop={() => void session.conversation.loadOlder()}
          focus={focus}
          meId={session.me.id}
          onResend={chat.state === 'closed' ? undefined : (id) => void session.conversation.resend(id)}
        />
      ) : (
        <div class="message-log" />
      )}
      {clientDraft && chat && <ClientDraft name={chat.client.display_name} draft={clientDraft} />}
      <p class="typing-indicator" aria-live="polite">
        {clientTyping && chat ? `${chat.client.display_name} is typing…` : ''}
      </p>
      {chat && chat.state !== 'closed' && <ReplyBox session={session} chat={chat} />}
      {chat?.state === 'closed' && <p class="muted closed-note">This chat is closed.</p>}
    </section>
  );
}
