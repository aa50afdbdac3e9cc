import { updateChannelSchema, webhookEventNames, type ChannelView, type WebhookEventName } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { SigningSecret } from '../channels/signing-secret.tsx';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

const lines = (text: string) =>
  text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/**
 * Settings - Integration Settings for Developers (spec 4.4 Safe URL, 4.3): the domains whose links agents may
 * see in custom data, the server webhook and its events (spec 6.2), and the secret that signs the webhooks.
 */
export function DeveloperSettings({ api, channel, onChanged }: { api: AdminApi; channel: ChannelView; onChanged: () => void }) {
  const [domains, setDomains] = useState((channel.safe_domains ?? []).join('\n'));
  const [webhookUrl, setWebhookUrl] = useState(channel.webhook_url ?? '');
  const [events, setEvents] = useState<WebhookEventName[]>(channel.webhook_events ?? [...webhookEventNames]);
  const form = useSubmit();
  const saved = channel.safe_domains ?? [];

  const toggle = (name: WebhookEventName, on: boolean) =>
    setEvents((list) => (on ? webhookEventNames.filter((e) => e === name || list.includes(e)) : list.filter((e) => e !== name)));

  const submit = (event: Event) => {
    event.preventDefault();
    const body = { safe_domains: lines(domains), webhook_url: webhookUrl.trim() === '' ? null : webhookUrl, webhook_events: events };
    void form.run(async () => {
      await api.updateChannel(channel.id, validBody(updateChannelSchema, body));
      onChanged();
    }, 'Saved.');
  };

  return (
    <>
      <form class="admin-form" onSubmit={submit} aria-labelledby="dev-settings-title" noValidate>
        <h3 id="dev-settings-title">Integration Settings for Developers</h3>
        <h4>Allowed domains</h4>
        {saved.length === 0 ? (
          <p class="notice" data-testid="safe-domains-notice">
            No domains are listed: links to every http(s) domain in your visitors' custom data are shown to agents.
          </p>
        ) : (
          <p class="help">Links in custom data are shown to agents only on these domains and their subdomains.</p>
        )}
        <label for="safe-domains">Allowed domains, one per line</label>
        <textarea
          id="safe-domains"
          rows={4}
          placeholder={'example.com\n*.shop.example.com'}
          aria-describedby="safe-domains-help"
          value={domains}
          onInput={(e) => setDomains(e.currentTarget.value)}
        />
        <p id="safe-domains-help" class="help">
          example.com allows it and its subdomains; *.example.com only its subdomains.
        </p>

        <h4>Server webhook</h4>
        <label for="server-webhook">Webhook URL of your server</label>
        <input
          id="server-webhook"
          type="url"
          placeholder="https://crm.example.com/svc-hooks"
          aria-describedby="server-webhook-help"
          value={webhookUrl}
          onInput={(e) => setWebhookUrl(e.currentTarget.value)}
        />
        <p id="server-webhook-help" class="help">
          Leave empty to send no webhooks.
        </p>
        <fieldset class="checkbox-group">
          <legend>Events sent to it</legend>
          {webhookEventNames.map((name) => (
            <label key={name} class="checkbox">
              <input type="checkbox" checked={events.includes(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} />
              <code>{name}</code>
            </label>
          ))}
        </fieldset>
        <FormError message={form.error} />
        <FormNotice message={form.notice} />
        <div class="form-actions">
          <button type="submit" class="button button--primary" disabled={form.busy}>
            Save integration settings
          </button>
        </div>
      </form>
      <SigningSecret api={api} channel={channel} onChanged={onChanged} />
    </>
  );
}
