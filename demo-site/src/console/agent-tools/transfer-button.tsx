import type { ChatView, TransferTargetsView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import type { ConsoleSession } from '../live/console-session.ts';
import './agent-tools.css';

/** Transfer: hand the chat to a colleague of the channel or to a department's queue, with an optional note. */
export function TransferButton({ session, chat }: { session: ConsoleSession; chat: ChatView }) {
  const [targets, setTargets] = useState<TransferTargetsView | null>(null);
  const [open, setOpen] = useState(false);
  const [choice, setChoice] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const show = async () => {
    setOpen(true);
    setError(null);
    try {
      setTargets(await session.tools.transferTargets(chat.id));
    } catch (err) {
      setError(errorText(err));
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const [kind, raw] = choice.split(':');
    if (!raw) return;
    const to = kind === 'agent' ? { agent_id: Number(raw) } : { department_id: Number(raw) };
    setBusy(true);
    setError(null);
    try {
      const updated = await session.tools.transfer(chat.id, to, note);
      session.inbox.upsert(updated);
      session.conversation.applyChat(updated);
      setOpen(false);
      setChoice('');
      setNote('');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  if (!open)
    return (
      <button type="button" class="button" onClick={() => void show()} disabled={chat.state === 'bot'}>
        Transfer
      </button>
    );
  return (
    <form class="transfer-form" aria-label="Transfer the chat" onSubmit={(e) => void submit(e)}>
      <label>
        To
        <select value={choice} onChange={(e) => setChoice(e.currentTarget.value)} required>
          <option value="">Choose…</option>
          {targets && targets.agents.length > 0 && (
            <optgroup label="Agents">
              {targets.agents.map((a) => (
                <option key={a.id} value={`agent:${a.id}`}>
                  {a.name} ({a.status})
                </option>
              ))}
            </optgroup>
          )}
          {targets && targets.departments.length > 0 && (
            <optgroup label="Departments">
              {targets.departments.map((d) => (
                <option key={d.id} value={`department:${d.id}`}>
                  {d.name}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      <label>
        Note for them (optional)
        <input type="text" value={note} maxLength={4000} onInput={(e) => setNote(e.currentTarget.value)} />
      </label>
      <button type="submit" class="button button--primary" disabled={busy || !choice}>
        Transfer
      </button>
      <button type="button" class="button button--ghost" onClick={() => setOpen(false)}>
        Cancel
      </button>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
