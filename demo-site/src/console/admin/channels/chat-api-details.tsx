import { BusinessHoursCard } from '../business-hours/business-hours-form.tsx';
import { TranscriptSettings } from '../transcripts/transcript-settings.tsx';
import { CopyField } from '../ui/copy-field.tsx';
import type { ChannelDetailsProps } from './channel-details-props.ts';
import { ChatApiForm } from './chat-api-form.tsx';
import { chatApiCurlExample } from './curl-example.ts';
import { DeleteChannel } from './delete-channel.tsx';
import { SigningSecret } from './signing-secret.tsx';
import { RetentionSettings } from '../retention/retention-settings.tsx';
import { AutoCloseSettings } from '../visitor-behaviour/auto-close-settings.tsx';

/** A Chat API channel (spec 1.4): where the integrator posts and reads the status, then its settings. */
export function ChatApiDetails({ api, channel, agents, onChanged, onBack }: ChannelDetailsProps) {
  const endpoint = channel.endpoint ?? '';
  const statusUrl = channel.status_url ?? '';
  return (
    <section class="admin-section" aria-labelledby="channel-title">
      <div class="section-head">
        <h3 id="channel-title">{channel.name}</h3>
        <button type="button" class="button button--ghost" onClick={onBack}>
          All channels
        </button>
      </div>
      <p class="muted">
        Chat API channel · id {channel.public_id} · {channel.status === 1 ? 'online' : 'offline'}
      </p>
      <div class="admin-card">
        <h4>Connect your system</h4>
        <CopyField label="Endpoint" value={endpoint} />
        <CopyField label="Status URL" value={statusUrl} />
        <CopyField label="Try it with curl" value={chatApiCurlExample(endpoint, statusUrl)} multiline />
      </div>
      <div class="admin-card">
        <SigningSecret api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <ChatApiForm api={api} agents={agents} channel={channel} onSaved={onChanged} />
      </div>
      <div class="admin-card">
        <AutoCloseSettings api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <RetentionSettings api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <BusinessHoursCard api={api} channel={channel} />
      </div>
      <div class="admin-card">
        <TranscriptSettings api={api} channel={channel} />
      </div>
      <DeleteChannel api={api} channel={channel} onDeleted={onBack} />
    </section>
  );
}
