import { BusinessHoursCard } from '../business-hours/business-hours-form.tsx';
import { CallbackSettings } from '../callbacks/callback-settings.tsx';
import type { ChannelDetailsProps } from '../channels/channel-details-props.ts';
import { DeleteChannel } from '../channels/delete-channel.tsx';
import { VerifiedVisitors } from '../identity/verified-visitors.tsx';
import { TranscriptSettings } from '../transcripts/transcript-settings.tsx';
import { TriggersEditor } from '../triggers/triggers-editor.tsx';
import { CopyField } from '../ui/copy-field.tsx';
import { AppearanceSettings } from './appearance-form.tsx';
import { AllowedSites } from './allowed-sites.tsx';
import { DeveloperSettings } from './developer-settings.tsx';
import { EmbedPreview } from './embed-preview.tsx';
import { WidgetForm } from './widget-form.tsx';
import { RetentionSettings } from '../retention/retention-settings.tsx';
import { AutoCloseSettings } from '../visitor-behaviour/auto-close-settings.tsx';
import { TypingPreviewSettings } from '../visitor-behaviour/typing-preview-settings.tsx';

/** A widget channel: its embed snippet and preview, then its settings, one card each. */
export function WidgetDetails({ api, channel, agents, onChanged, onBack }: ChannelDetailsProps) {
  const embed = channel.embed ?? '';
  return (
    <section class="admin-section" aria-labelledby="channel-title">
      <div class="section-head">
        <h3 id="channel-title">{channel.name}</h3>
        <button type="button" class="button button--ghost" onClick={onBack}>
          All channels
        </button>
      </div>
      <p class="muted">
        Widget channel · widget id {channel.public_id} · {channel.status === 1 ? 'online' : 'offline'}
      </p>
      <div class="admin-card">
        <h4>Embed code</h4>
        <p class="help">Paste it into every page of your site, before the closing body tag.</p>
        <CopyField label="Embed snippet" value={embed} multiline />
        <EmbedPreview embed={embed} name={channel.name} />
      </div>
      <div class="admin-card">
        <AppearanceSettings api={api} channel={channel} />
      </div>
      <div class="admin-card">
        <WidgetForm api={api} agents={agents} channel={channel} onSaved={onChanged} />
      </div>
      <div class="admin-card">
        <AllowedSites api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <DeveloperSettings api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <TriggersEditor api={api} channel={channel} />
      </div>
      <div class="admin-card">
        <CallbackSettings api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <AutoCloseSettings api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <RetentionSettings api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <TypingPreviewSettings api={api} channel={channel} onChanged={onChanged} />
      </div>
      <div class="admin-card">
        <BusinessHoursCard api={api} channel={channel} />
      </div>
      <div class="admin-card">
        <VerifiedVisitors api={api} channel={channel} />
      </div>
      <div class="admin-card">
        <TranscriptSettings api={api} channel={channel} />
      </div>
      <DeleteChannel api={api} channel={channel} onDeleted={onBack} />
    </section>
  );
}
