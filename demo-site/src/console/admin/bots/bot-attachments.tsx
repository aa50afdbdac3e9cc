import { updateChannelSchema, type BotProviderView, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

interface BotAttachmentsProps {
  api: AdminApi;
  channels: ChannelView[];
  providers: BotProviderView[];
  onChanged: () => void;
}

/** Which channels hand their new chats to a bot first (PATCH channel `bot`), and the form to attach one. */
export function BotAttachments({ api, channels, providers, onChanged }: BotAttachmentsProps) {
  const [channelId, setChannelId] = useState('');
  const [providerId, setProviderId] = useState('');
  const [token, setToken] = useState('');
  const form = useSubmit();
  const providerName = (id: string) => providers.find((p) => p.provider_id === id)?.name ?? id;
  const withBots = channels.filter((c) => c.bot);

  const attach = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      if (channelId === '') throw new Error('Choose a channel');
      const body = validBody(updateChannelSchema, { bot: { provider_id: providerId, token } });
      await api.updateChannel(Number(channelId), body);
      setToken('');
      onChanged();
    });
  };
  const detach = (channel: ChannelView) =>
    form.run(async () => {
      await api.updateChannel(channel.id, { bot: null });
      onChanged();
    });

  return (
    <div>
      {withBots.length === 0 ? (
        <p class="muted">No channel has a bot.</p>
      ) : (
        <ul class="admin-list" aria-label="Channels with a bot">
          {withBots.map((channel) => (
            <li key={channel.id} class="admin-list-row" aria-label={channel.name}>
              <span class="admin-list-name">{channel.name}</span>
              <span>
                {providerName(channel.bot!.provider_id)} <span class="muted">· token {channel.bot!.token}</span>
              </span>
              <button
                type="button"
                class="button button--danger"
                onClick={() => detach(channel)}
                aria-label={`Detach the bot from ${channel.name}`}
              >
                Detach
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="admin-form" onSubmit={attach} aria-label="Attach a bot to a channel" noValidate>
        <label for="attach-channel">Channel</label>
        <select id="attach-channel" value={channelId} onChange={(e) => setChannelId(e.currentTarget.value)}>
          <option value="">Choose a channel</option>
          {channels.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </select>
        <label for="attach-provider">Bot provider</label>
        <select id="attach-provider" value={providerId} onChange={(e) => setProviderId(e.currentTarget.value)}>
          <option value="">Choose a provider</option>
          {providers.map((p) => (
            <option key={p.provider_id} value={p.provider_id}>
              {p.name}
            </option>
          ))}
        </select>
        <TextField
          id="attach-token"
          label="Channel token"
          help="Names the channel in the Bot API URLs: give each channel its own."
          value={token}
          onInput={setToken}
        />
        <FormError message={form.error} />
        <div class="form-actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            Attach bot
          </button>
        </div>
      </form>
    </div>
  );
}
