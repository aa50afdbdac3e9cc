import { updateChannelSchema, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

/**
 * How long a channel keeps closed chats (issue 21, docs/admin-api.md "A customer's data"): older ones are
 * erased by the retention sweep, open chats never. Empty: kept forever.
 */
export function RetentionSettings({ api, channel, onChanged }: { api: AdminApi; channel: ChannelView; onChanged: () => void }) {
  const [days, setDays] = useState(channel.retention_days === null ? '' : String(channel.retention_days));
  const form = useSubmit();
  const submit = (event: Event) => {
    event.preventDefault();
    const value = days.trim() === '' ? null : Number(days);
    const done = value === null ? 'Closed chats are kept forever.' : `Closed chats are erased ${value} days after they close.`;
    // Checked inside run: our check's refusal shows in the form as the API's would.
    void form.run(async () => {
      await api.updateChannel(channel.id, validBody(updateChannelSchema, { retention_days: value }));
      onChanged();
    }, done);
  };
  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby="retention-title" noValidate>
      <h3 id="retention-title">Keep chats</h3>
      <p class="help" id="retention-help">
        Closed chats older than this are erased with their messages and files, as an erasure on request is, and written in the erasure log.
        Open chats are never erased. Leave it empty to keep chats forever.
      </p>
      <label>
        Days after a chat closes
        <input
          type="number"
          min="0"
          step="any"
          inputMode="decimal"
          placeholder="Keep forever"
          aria-describedby="retention-help"
          value={days}
          onInput={(e) => setDays(e.currentTarget.value)}
        />
      </label>
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Save retention
        </button>
      </div>
    </form>
  );
}
