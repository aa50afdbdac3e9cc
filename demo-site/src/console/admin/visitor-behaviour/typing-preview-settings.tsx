import { updateChannelSchema, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

/**
 * Typing preview of a widget channel (issue 24, docs/admin-api.md "Typing preview"): agents see the visitor's
 * draft as they type. Off by default; the widget tells the visitor when it is on.
 */
export function TypingPreviewSettings({ api, channel, onChanged }: { api: AdminApi; channel: ChannelView; onChanged: () => void }) {
  const [on, setOn] = useState(channel.typing_preview ?? false);
  const form = useSubmit();
  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      await api.updateChannel(channel.id, validBody(updateChannelSchema, { typing_preview: on }));
      onChanged();
    }, 'Saved.');
  };
  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby="typing-preview-title" noValidate>
      <h3 id="typing-preview-title">Typing preview</h3>
      <p class="help">
        Agents see what visitors type before they send it, so an answer can be ready sooner. The chat window tells visitors that their
        typing is visible. Off: nothing leaves the visitor's browser until they send it.
      </p>
      <label class="checkbox">
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} />
        Show agents what visitors are typing
      </label>
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Save typing preview
        </button>
      </div>
    </form>
  );
}
