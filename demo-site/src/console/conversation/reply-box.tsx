import type { ChatView } from '@svc/protocol';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import type { ConsoleSession } from '../live/console-session.ts';
import { createTypingEmitter } from './typing-emitter.ts';

/** The agent's answer: Enter sends, Shift+Enter starts a new line; typing is reported while composing. */
export function ReplyBox({ session, chat }: { session: ConsoleSession; chat: ChatView }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const typing = useMemo(() => createTypingEmitter((state) => session.api.typing(chat.id, state)), [session, chat.id]);
  useEffect(() => () => typing.stop(), [typing]);

  const send = async () => {
    const body = text.trim();
    if (!body || sending) return;
    typing.stop();
    setSending(true);
    setError(null);
    try {
      const sent = await session.api.sendMessage(chat.id, { type: 'text', text: body });
      // The socket usually brings the message (and maybe its delivery) first: this copy only fills a gap.
      session.conversation.applyMessage(sent, { ifAbsent: true });
      setText('');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // isComposing: Enter that confirms an IME composition (Japanese, Chinese...) must not send.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    void send();
  };

  const onSubmit = (event: Event) => {
    event.preventDefault();
    void send();
  };

  return (
    <form class="reply-box" onSubmit={onSubmit}>
      <label for="reply-text" class="sr-only">
        Reply to {chat.client.display_name}
      </label>
      <textarea
        id="reply-text"
        rows={2}
        placeholder="Write a reply… (Enter to send, Shift+Enter for a new line)"
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          if (e.currentTarget.value) typing.keystroke();
          else typing.stop();
        }}
        onKeyDown={onKeyDown}
        aria-describedby={error ? 'reply-error' : undefined}
      />
      <button type="submit" class="button button--primary" disabled={sending || !text.trim()}>
        Send
      </button>
      {error && (
        <p id="reply-error" class="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
