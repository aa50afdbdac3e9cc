import { updateChannelSchema, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

/**
 * Chats that end by themselves (issue 24, docs/admin-api.md "Visitors as they really behave"): after how many
 * minutes without a message the service closes an open or bot chat, as an agent's close would. Empty: never.
 */
export function AutoCloseSettings({ api, channel, onChanged }: { api: AdminApi; channel: ChannelView; onChanged: () => void }) {
  const [minutes, setMinutes] = useState(channel.auto_close_minutes === null ? '' : String(channel.auto_close_minutes));
  const form = useSubmit();
  const submit = (event: Event) => {
    event.preventDefault();
    const value = minutes.trim() === '' ? null : Number(minutes);
    const done = value === null ? 'Chats stay open until someone closes them.' : `Idle chats close after ${value} minutes.`;
    // Checked inside run: our check's refusal shows in the form as the API's would.
    void form.run(async () => {
      await api.updateChannel(channel.id, validBody(updateChannelSchema, { auto_close_minutes: value }));
      onChanged();
    }, done);
  };
  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby="auto-close-title" noValidate>
      <h3 id="auto-close-title">Close idle chats</h3>
      <p class="help">
        A chat with no message from anyone for this long is closed for you: the visitor, the bot and your webhooks hear it as if an agent
        had closed it. Leave it empty to keep chats open until someone closes them.
      </p>
      <label>
        Minutes without a message
        <input type="number" min="0" step="any" inputMode="decimal" value={minutes} onInput={(e) => setMinutes(e.currentTarget.value)} />
      </label>
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Save idle chat closing
        </button>
      </div>
    </form>
  );
}
