import type { CannedReplyView, ChatView } from '@svc/protocol';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import type { ConsoleSession } from '../live/console-session.ts';
import { createTypingEmitter } from './typing-emitter.ts';
import '../agent-tools/agent-tools.css';
import { CannedPicker, matchCannedReplies } from '../agent-tools/canned-picker.tsx';
import { fillPlaceholders } from '../agent-tools/fill-placeholders.ts';

/** The agent's answer: Enter sends, Shift+Enter starts a new line; typing is reported while composing. */
export function ReplyBox({ session, chat }: { session: ConsoleSession; chat: ChatView }) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A private note goes to the channel's agents only: no typing is reported for it.
  const [note, setNote] = useState(false);
  // `/` at the start opens the saved replies, loaded afresh each time it opens.
  const [canned, setCanned] = useState<CannedReplyView[] | null>(null);
  const [active, setActive] = useState(0);
  // The text at which the list was closed (Escape, or a reply put in): it stays closed until the text changes.
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const query = text.startsWith('/') && !text.includes('\n') && text !== closedAt ? text.slice(1) : null;
  const matches = query !== null && canned ? matchCannedReplies(canned, query) : [];
  useEffect(() => {
    if (query === null) return setCanned(null);
    if (canned === null) void session.tools.listCannedReplies().then(setCanned, () => setCanned([]));
  }, [query === null]);
  useEffect(() => setActive(0), [query]);
  const pick = (reply: CannedReplyView) => {
    const filled = fillPlaceholders(reply.text, { 'client.name': chat.client.name, 'agent.name': session.me.name });
    setText(filled);
    setClosedAt(filled);
  };
  const typing = useMemo(() => createTypingEmitter((state) => session.api.typing(chat.id, state)), [session, chat.id]);
  useEffect(() => () => typing.stop(), [typing]);

  const send = async () => {
    const body = text.trim();
    if (!body || sending) return;
    typing.stop();
    setSending(true);
    setError(null);
    try {
      const sent = note ? await session.tools.addNote(chat.id, body) : await session.api.sendMessage(chat.id, { type: 'text', text: body });
      // The socket usually brings the message (and maybe its delivery) first: this copy only fills a gap.
      session.conversation.applyMessage(sent, { ifAbsent: true });
      setText('');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSending(false);
    }
  };

  /** Uploads the chosen file and sends it as the matching media message, with the typed text as caption. */
  const attach = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file || sending) return;
    setSending(true);
    setError(null);
    try {
      const { content_type: _contentType, ...media } = await session.api.upload(file);
      const caption = text.trim();
      const sent = await session.api.sendMessage(chat.id, { ...media, ...(caption ? { text: caption } : {}) });
      session.conversation.applyMessage(sent, { ifAbsent: true });
      setText('');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (query !== null && canned !== null) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (matches.length === 0 ? 0 : (i + step + matches.length) % matches.length));
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault(); // the list closes; the reply box keeps the focus
        return setClosedAt(text);
      }
      if (event.key === 'Enter' && !event.shiftKey && matches[active]) {
        event.preventDefault();
        return pick(matches[active]);
      }
    }
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
    <form class={`reply-box${note ? ' reply-box--note' : ''}`} onSubmit={onSubmit}>
      {query !== null && canned !== null && <CannedPicker matches={matches} active={active} onPick={pick} />}
      <label for="reply-text" class="sr-only">
        {note ? 'Private note for agents' : `Reply to ${chat.client.display_name}`}
      </label>
      <textarea
        id="reply-text"
        rows={2}
        placeholder={
          note ? 'Write a private note: only agents see it (Enter to save)' : 'Write a reply… (Enter to send, Shift+Enter for a new line)'
        }
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          if (note) return;
          if (e.currentTarget.value) typing.keystroke();
          else typing.stop();
        }}
        onKeyDown={onKeyDown}
        aria-describedby={error ? 'reply-error' : undefined}
        aria-controls={query !== null ? 'canned-picker' : undefined}
        aria-activedescendant={query !== null && matches[active] ? `canned-${matches[active].id}` : undefined}
      />
      <label class="checkbox note-toggle" title="Only the channel's agents see a private note">
        <input
          type="checkbox"
          checked={note}
          onChange={(e) => {
            setNote(e.currentTarget.checked);
            typing.stop();
          }}
        />
        Private note
      </label>
      {!note && (
        <label class="button attach-button" title="Attach a file (images, audio, video, PDF, office documents; up to 10 MB)">
          Attach
          <input type="file" class="sr-only" aria-label="Attach a file" disabled={sending} onChange={(e) => void attach(e.currentTarget)} />
        </label>
      )}
      <button type="submit" class="button button--primary" disabled={sending || !text.trim()}>
        {note ? 'Add note' : 'Send'}
      </button>
      {error && (
        <p id="reply-error" class="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
