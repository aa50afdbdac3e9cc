import { updateChannelSchema, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

const lines = (text: string) =>
  text
    .split(/[\n,\s]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** The sites whose pages may show the chat window (the frame's `frame-ancestors`); none: any site. */
export function AllowedSites({ api, channel, onChanged }: { api: AdminApi; channel: ChannelView; onChanged: () => void }) {
  const saved = channel.allowed_sites ?? [];
  const [sites, setSites] = useState(saved.join('\n'));
  const form = useSubmit();

  const submit = (event: Event) => {
    event.preventDefault();
    void form.run(async () => {
      const saved = await api.updateChannel(channel.id, validBody(updateChannelSchema, { allowed_sites: lines(sites) }));
      // As the service keeps them: origins written as browsers write them.
      setSites((saved.allowed_sites ?? []).join('\n'));
      onChanged();
    }, 'Saved.');
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby="allowed-sites-title" noValidate>
      <h3 id="allowed-sites-title">Sites that may show the chat</h3>
      {saved.length === 0 ? (
        <p class="notice" data-testid="allowed-sites-notice">
          No sites are listed: the chat window opens on any site that has the embed code.
        </p>
      ) : (
        <p class="help">The chat window opens only on pages of these sites; elsewhere the browser refuses to show it.</p>
      )}
      <label for="allowed-sites">Sites, one per line</label>
      <textarea
        id="allowed-sites"
        rows={3}
        placeholder={'https://shop.example.com\nhttps://www.example.com'}
        aria-describedby="allowed-sites-help"
        value={sites}
        onInput={(e) => setSites(e.currentTarget.value)}
      />
      <p id="allowed-sites-help" class="help">
        Scheme and host, with the port if it is not the usual one, and no path: each subdomain is a site of its own.
      </p>
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Save sites
        </button>
      </div>
    </form>
  );
}
