import { createBotProviderSchema, type BotProviderView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

/** Registers a bot provider (spec 1.5): where the service posts its events, and optionally its OAuth client credentials. */
export function ProviderForm({ api, onSaved }: { api: AdminApi; onSaved: (provider: BotProviderView) => void }) {
  const [name, setName] = useState('');
  const [endpoint, setEndpoint] = useState('');
  const [withAuth, setWithAuth] = useState(false);
  const [tokenUrl, setTokenUrl] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const form = useSubmit();

  const submit = (event: Event) => {
    event.preventDefault();
    const auth = withAuth ? { token_url: tokenUrl, client_id: clientId, client_secret: clientSecret } : null;
    void form.run(async () => {
      onSaved(await api.createBotProvider(validBody(createBotProviderSchema, { name, endpoint, auth })));
      setName('');
      setEndpoint('');
      setClientSecret('');
    });
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-label="Register a bot provider" noValidate>
      <TextField
        id="provider-name"
        label="Provider name"
        help="Chat API apps receive it as the sender name of bot messages."
        value={name}
        onInput={setName}
      />
      <TextField
        id="provider-endpoint"
        label="Bot endpoint"
        type="url"
        placeholder="https://bots.example.com/svc"
        help="The service posts its events to this URL followed by the channel's token."
        value={endpoint}
        onInput={setEndpoint}
      />
      <label class="checkbox">
        <input type="checkbox" checked={withAuth} onChange={(e) => setWithAuth(e.currentTarget.checked)} />
        <span>Protect with OAuth 2.0 client credentials</span>
      </label>
      {withAuth && (
        <fieldset class="sub-group">
          <legend>OAuth client credentials</legend>
          <TextField id="provider-token-url" label="Token URL" type="url" value={tokenUrl} onInput={setTokenUrl} />
          <TextField id="provider-client-id" label="Client id" value={clientId} onInput={setClientId} />
          <TextField
            id="provider-client-secret"
            label="Client secret"
            type="password"
            help="Stored, never shown again."
            value={clientSecret}
            onInput={setClientSecret}
          />
        </fieldset>
      )}
      <FormError message={form.error} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Register provider
        </button>
      </div>
    </form>
  );
}
