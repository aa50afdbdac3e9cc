import { updateChannelIdentitySchema, type ChannelIdentityView, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { CopyField } from '../ui/copy-field.tsx';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';
import { nodeSigningSnippet } from './signing-snippet.ts';

/**
 * Verified visitors of a widget channel (docs/admin-api.md "Verified visitors"): the identity secret, hidden
 * until asked for and rotatable, whether unsigned user ids are refused, and how the site's server signs them.
 */
export function VerifiedVisitors({ api, channel }: { api: AdminApi; channel: ChannelView }) {
  const identity = useLoad(() => api.getIdentity(channel.id), [channel.id]);
  return (
    <section aria-labelledby="identity-title">
      <h3 id="identity-title">Verified visitors</h3>
      <p class="help">Your server signs the id of the logged-in user with this secret; agents then see the visitor as Verified.</p>
      <FormError message={identity.error} />
      {identity.data && <IdentityForm key={channel.id} api={api} channelId={channel.id} view={identity.data} onChanged={identity.set} />}
      <CopyField label="Signing on your server" value={nodeSigningSnippet} multiline />
    </section>
  );
}

interface IdentityFormProps {
  api: AdminApi;
  channelId: number;
  view: ChannelIdentityView;
  onChanged: (view: ChannelIdentityView) => void;
}

function IdentityForm({ api, channelId, view, onChanged }: IdentityFormProps) {
  const [shown, setShown] = useState(false);
  const [required, setRequired] = useState(view.require_verified_users);
  const form = useSubmit();
  const rotate = () => form.run(async () => onChanged(await api.rotateIdentitySecret(channelId)), 'A new identity secret is in use.');
  const submit = (event: Event) => {
    event.preventDefault();
    const body = validBody(updateChannelIdentitySchema, { require_verified_users: required });
    void form.run(async () => onChanged(await api.updateIdentity(channelId, body)), 'Saved.');
  };
  return (
    <form class="admin-form" onSubmit={submit} aria-label="Verified visitors" noValidate>
      {shown ? <CopyField label="Identity secret" value={view.identity_secret} /> : <p class="secret-hidden">••••••••••••</p>}
      <div class="form-actions">
        <button type="button" class="button" aria-pressed={shown} onClick={() => setShown((on) => !on)}>
          {shown ? 'Hide identity secret' : 'Show identity secret'}
        </button>
        <ConfirmButton
          label="Rotate identity secret"
          question="Rotate the identity secret? Signatures made with the old one stop verifying at once: update your server right away."
          confirmLabel="Rotate now"
          onConfirm={rotate}
        />
      </div>
      <label class="checkbox">
        <input type="checkbox" checked={required} onChange={(e) => setRequired(e.currentTarget.checked)} />
        Require verified visitors (refuse user ids that are not signed)
      </label>
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Save verified visitors
        </button>
      </div>
    </form>
  );
}
