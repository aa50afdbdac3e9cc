import type { AdminApi } from '../admin-api.ts';
import { FormError } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { BotAttachments } from './bot-attachments.tsx';
import { BotEvents } from './bot-events.tsx';
import { ProviderForm } from './provider-form.tsx';

/** Bots (Bot API): the registered providers, which channels use one, and a chat's bot event log. */
export function BotsScreen({ api, chatId }: { api: AdminApi; chatId?: number }) {
  const providers = useLoad(() => api.listBotProviders());
  const channels = useLoad(() => api.listChannels());

  return (
    <section class="admin-section" aria-labelledby="bots-title">
      <h3 id="bots-title">Bots</h3>
      <FormError message={providers.error ?? channels.error} />
      <div class="admin-card">
        <h4>Bot providers</h4>
        {providers.data?.length === 0 && <p class="muted">No bot provider is registered.</p>}
        <ul class="admin-list" aria-label="Bot providers">
          {providers.data?.map((p) => (
            <li key={p.provider_id} class="admin-list-row" aria-label={p.name}>
              <span class="admin-list-name">{p.name}</span>
              <dl class="provider-facts">
                <dt>Provider id</dt>
                <dd>
                  <code>{p.provider_id}</code>
                </dd>
                <dt>Endpoint</dt>
                <dd>
                  <code>{p.endpoint}</code>
                </dd>
                <dt>Bot URL</dt>
                <dd>
                  <code>{p.bot_url}</code>
                </dd>
                <dt>OAuth</dt>
                <dd>{p.auth ? `client ${p.auth.client_id} at ${p.auth.token_url}` : 'none'}</dd>
              </dl>
            </li>
          ))}
        </ul>
        <h4>Register a provider</h4>
        <ProviderForm api={api} onSaved={() => void providers.reload()} />
      </div>
      <div class="admin-card">
        <h4>Bots of channels</h4>
        <BotAttachments
          api={api}
          channels={channels.data ?? []}
          providers={providers.data ?? []}
          onChanged={() => void channels.reload()}
        />
      </div>
      <div class="admin-card">
        <h4>Bot events of a chat</h4>
        <BotEvents api={api} chatId={chatId} />
      </div>
    </section>
  );
}
