import type { ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { CopyField } from '../ui/copy-field.tsx';
import { FormError } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';

/** The secret that signs the channel's outbound requests (Standard Webhooks): hidden until asked for, and rotatable. */
export function SigningSecret({ api, channel, onChanged }: { api: AdminApi; channel: ChannelView; onChanged: () => void }) {
  const [shown, setShown] = useState(false);
  const rotation = useSubmit();
  const rotate = () =>
    rotation.run(async () => {
      await api.rotateSigningSecret(channel.id);
      onChanged();
    });
  return (
    <div class="signing-secret">
      <h4>Signing secret</h4>
      <p class="help">Your server checks the signature of each request with it (the webhook-signature header).</p>
      {shown ? <CopyField label="Signing secret" value={channel.signing_secret} /> : <p class="secret-hidden">whsec_••••••••</p>}
      <div class="form-actions">
        <button type="button" class="button" aria-pressed={shown} onClick={() => setShown((on) => !on)}>
          {shown ? 'Hide signing secret' : 'Show signing secret'}
        </button>
        <ConfirmButton
          label="Rotate signing secret"
          question="Rotate the signing secret? Every request from now on is signed with the new secret only: update your server right away."
          confirmLabel="Rotate now"
          onConfirm={rotate}
        />
      </div>
      <FormError message={rotation.error} />
    </div>
  );
}
