import type { ChatView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import { TransferButton } from '../agent-tools/transfer-button.tsx';
import type { ConsoleSession } from '../live/console-session.ts';

/** Reply (the spec's accept: the agent takes the chat) and Close, optionally blacklisting the client. */
export function ChatActions({ session, chat }: { session: ConsoleSession; chat: ChatView }) {
  const [blacklist, setBlacklist] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (chat.state === 'closed') return <span class="chat-state">Closed</span>;

  const run = async (action: () => Promise<ChatView>) => {
    setBusy(true);
    setError(null);
    try {
      const since = session.conversation.mark();
      const updated = await action();
      // Our own answer may be older than a live update that overtook it: the newer one stays.
      if (session.conversation.applyChat(updated, { since })) session.inbox.upsert(updated);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const unassigned = chat.assigned_agent_id === null || chat.state === 'bot';
  return (
    <div class="chat-actions">
      {unassigned && (
        <button type="button" class="button button--primary" disabled={busy} onClick={() => run(() => session.api.accept(chat.id))}>
          Reply
        </button>
      )}
      <TransferButton session={session} chat={chat} />
      <label class="checkbox">
        <input type="checkbox" checked={blacklist} onChange={(e) => setBlacklist(e.currentTarget.checked)} />
        Blacklist
      </label>
      <button type="button" class="button button--danger" disabled={busy} onClick={() => run(() => session.api.close(chat.id, blacklist))}>
        Close chat
      </button>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
