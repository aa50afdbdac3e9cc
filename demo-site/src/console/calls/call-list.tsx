import type { CallStatus, CallStatusUpdate, CallView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import { errorText } from '../api/api-error.ts';
import type { ApiClient } from '../api/api-client.ts';
import { formatTime } from '../lib/format-time.ts';
import { safeHttpUrl } from '../lib/safe-url.ts';

const statusWords: Record<CallStatus, string> = {
  start: 'Waiting for an agent',
  agent_connected: 'Agent calling',
  client_connected: 'Connected',
  end: 'Ended',
  error: 'Failed',
};
const typeWords = { callback: 'Callback request', incoming: 'Incoming call', outgoing: 'Outgoing call' } as const;

/**
 * Calls of the agent's channels (issue 7), newest first. The built-in call provider has no telephony: the
 * agent phones the visitor and records each step here (Answer, Connected, End, Fail).
 */
export function CallList({ calls, api, onChanged }: { calls: CallView[]; api: ApiClient; onChanged: (call: CallView) => void }) {
  if (calls.length === 0) return <p class="muted empty">No calls.</p>;
  return (
    <ul class="call-list">
      {calls.map((call) => (
        <CallItem key={call.id} call={call} api={api} onChanged={onChanged} />
      ))}
    </ul>
  );
}

function CallItem({ call, api, onChanged }: { call: CallView; api: ApiClient; onChanged: (call: CallView) => void }) {
  const [recordUrl, setRecordUrl] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const live = call.status !== 'end' && call.status !== 'error';
  const who = call.visitor ? (call.visitor.name ?? `Visitor ${call.visitor.number ?? call.visitor.id}`) : 'Unknown caller';
  const record = safeHttpUrl(call.record_url);

  const change = async (update: CallStatusUpdate) => {
    setBusy(true);
    setError(null);
    try {
      onChanged(await api.changeCallStatus(call.id, update));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li class="call-item" aria-label={`${typeWords[call.type]} ${call.phone}`} data-call-id={call.id}>
      <p class="call-head">
        <strong class="call-phone">{call.phone}</strong> <span class={`call-status call-${call.status}`}>{statusWords[call.status]}</span>
      </p>
      <p class="muted">
        {typeWords[call.type]} · {who} · <time dateTime={call.created_at}>{formatTime(call.created_at)}</time>
        {call.duration !== null && ` · ${call.duration} s`}
      </p>
      {call.reason && <p class="call-reason">Reason: {call.reason}</p>}
      {record && (
        <p>
          <a href={record} target="_blank" rel="noopener noreferrer">
            Recording
          </a>
        </p>
      )}
      {live && (
        <div class="call-actions">
          {call.status === 'start' && (
            <button type="button" class="button button--primary" disabled={busy} onClick={() => void change({ status: 'agent_connected' })}>
              Answer
            </button>
          )}
          {call.status !== 'client_connected' && (
            <button type="button" class="button" disabled={busy} onClick={() => void change({ status: 'client_connected' })}>
              Connected
            </button>
          )}
          <label>
            Recording URL (optional)
            <input type="url" value={recordUrl} onInput={(e) => setRecordUrl(e.currentTarget.value)} placeholder="https://…/call.mp3" />
          </label>
          <button
            type="button"
            class="button"
            disabled={busy}
            onClick={() => void change(recordUrl.trim() ? { status: 'end', record_url: recordUrl.trim() } : { status: 'end' })}
          >
            End
          </button>
          <label>
            Failure reason
            <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} placeholder="No answer" />
          </label>
          <button
            type="button"
            class="button button--danger"
            disabled={busy}
            onClick={() => void change({ status: 'error', reason: reason.trim() || 'The call failed' })}
          >
            Fail
          </button>
        </div>
      )}
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}
