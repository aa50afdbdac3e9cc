import type { CannedReplyView } from '@svc/protocol';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import type { CannedRepliesApi } from './agent-tools-api.ts';
import './agent-tools.css';

interface SavedRepliesManagerProps {
  api: CannedRepliesApi;
  /** `team` in the admin panel, `personal` in the agent's own settings. */
  scope: 'team' | 'personal';
}

/** Saved replies of one scope: listed with their text, added with a shortcut, deleted. */
export function SavedRepliesManager({ api, scope }: SavedRepliesManagerProps) {
  const [replies, setReplies] = useState<CannedReplyView[]>([]);
  const [shortcut, setShortcut] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    try {
      setReplies((await api.listCannedReplies()).filter((r) => r.scope === scope));
    } catch (err) {
      setError(errorText(err));
    }
  };
  useEffect(() => void load(), []);

  const add = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.createCannedReply({ shortcut: shortcut.trim().replace(/^\//, ''), text, scope });
      setShortcut('');
      setText('');
      await load();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (id: number) => {
    setError(null);
    try {
      await api.deleteCannedReply(id);
      await load();
    } catch (err) {
      setError(errorText(err));
    }
  };

  const title = scope === 'team' ? "Team's saved replies" : 'My saved replies';
  return (
    <section class="saved-replies" aria-label={title}>
      <h4>{title}</h4>
      <p class="muted">
        Type <kbd>/</kbd> and the shortcut in the reply box. <code>{'{client.name}'}</code> and <code>{'{agent.name}'}</code> are filled in.
      </p>
      {replies.length === 0 ? (
        <p class="muted">No saved replies yet.</p>
      ) : (
        <ul class="saved-replies-list" aria-label={title}>
          {replies.map((r) => (
            <li key={r.id}>
              <span class="canned-shortcut">/{r.shortcut}</span>
              <span class="canned-text">{r.text}</span>
              <button type="button" class="link-button" aria-label={`Delete /${r.shortcut}`} onClick={() => void remove(r.id)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="saved-reply-form" onSubmit={(e) => void add(e)}>
        <label>
          Shortcut
          <input type="text" value={shortcut} maxLength={41} required onInput={(e) => setShortcut(e.currentTarget.value)} />
        </label>
        <label>
          Text
          <textarea rows={2} value={text} maxLength={4000} required onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit" class="button button--primary" disabled={busy}>
          Add saved reply
        </button>
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
