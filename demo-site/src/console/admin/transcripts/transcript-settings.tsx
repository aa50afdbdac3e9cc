import { transcriptSettingsSchema, type ChannelView, type TranscriptSettingsView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

/** Chat transcripts by e-mail (docs/admin-api.md): the archive address and whether the customer gets the log. */
export function TranscriptSettings({ api, channel }: { api: AdminApi; channel: ChannelView }) {
  const settings = useLoad(() => api.getTranscripts(channel.id), [channel.id]);
  return (
    <section aria-labelledby="transcripts-title">
      <h3 id="transcripts-title">Transcripts by e-mail</h3>
      <p class="help">The log of every finished chat, as plain text.</p>
      <FormError message={settings.error} />
      {settings.data && !settings.data.smtp_configured && (
        <p class="notice" data-testid="smtp-notice">
          This server has no SVC_SMTP_URL, so no e-mail is sent: these settings take effect once an operator sets it.
        </p>
      )}
      {settings.data && <TranscriptForm key={channel.id} api={api} channelId={channel.id} view={settings.data} onSaved={settings.set} />}
    </section>
  );
}

interface TranscriptFormProps {
  api: AdminApi;
  channelId: number;
  view: TranscriptSettingsView;
  onSaved: (view: TranscriptSettingsView) => void;
}

function TranscriptForm({ api, channelId, view, onSaved }: TranscriptFormProps) {
  const [archive, setArchive] = useState(view.archive_email ?? '');
  const [toCustomer, setToCustomer] = useState(view.to_customer);
  const form = useSubmit();
  const submit = (event: Event) => {
    event.preventDefault();
    const body = { archive_email: archive.trim() === '' ? null : archive.trim(), to_customer: toCustomer };
    void form.run(async () => onSaved(await api.updateTranscripts(channelId, validBody(transcriptSettingsSchema, body))), 'Saved.');
  };
  return (
    <form class="admin-form" onSubmit={submit} aria-label="Transcripts by e-mail" noValidate>
      <TextField
        id="transcripts-archive"
        label="Archive address"
        type="email"
        value={archive}
        onInput={setArchive}
        placeholder="chats@example.com"
        help="Every finished chat's log also goes here. Leave empty for none."
      />
      <label class="checkbox">
        <input type="checkbox" checked={toCustomer} onChange={(e) => setToCustomer(e.currentTarget.checked)} />
        Send the log to the customer, when they gave an e-mail address
      </label>
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Save transcript settings
        </button>
      </div>
    </form>
  );
}
