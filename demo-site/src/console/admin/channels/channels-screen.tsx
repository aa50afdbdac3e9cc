import type { ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { FormError } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { WidgetDetails } from '../widget-settings/widget-details.tsx';
import { WidgetForm } from '../widget-settings/widget-form.tsx';
import { ChatApiDetails } from './chat-api-details.tsx';
import { ChatApiForm } from './chat-api-form.tsx';

/** Where the Channels screen is: the list, a step of Add channel (spec 1.3: Add Channels -> Chat API -> Connect), or one channel. */
type View = { at: 'list' } | { at: 'add' } | { at: 'add-chat-api' } | { at: 'add-widget' } | { at: 'channel'; id: number };

const kindLabel = { chat_api: 'Chat API', widget: 'Widget' } as const;

export function ChannelsScreen({ api }: { api: AdminApi }) {
  const [view, setView] = useState<View>({ at: 'list' });
  const channels = useLoad(() => api.listChannels());
  const agents = useLoad(() => api.listAgents());

  const toList = () => {
    setView({ at: 'list' });
    void channels.reload();
  };
  const opened = (channel: ChannelView) => {
    channels.set([...(channels.data ?? []).filter((c) => c.id !== channel.id), channel]);
    void channels.reload();
    setView({ at: 'channel', id: channel.id });
  };

  if (view.at === 'add-chat-api')
    return <ChatApiForm api={api} agents={agents.data ?? []} onSaved={opened} onCancel={() => setView({ at: 'add' })} />;
  if (view.at === 'add-widget')
    return <WidgetForm api={api} agents={agents.data ?? []} onSaved={opened} onCancel={() => setView({ at: 'add' })} />;
  if (view.at === 'channel') {
    const channel = channels.data?.find((c) => c.id === view.id);
    if (!channel)
      return (
        <section class="admin-section">
          <FormError message={channels.error} />
          {channels.data && <p class="muted">This channel no longer exists.</p>}
          <button type="button" class="button" onClick={toList}>
            All channels
          </button>
        </section>
      );
    const Details = channel.kind === 'chat_api' ? ChatApiDetails : WidgetDetails;
    return (
      <Details
        key={channel.id}
        api={api}
        channel={channel}
        agents={agents.data ?? []}
        onChanged={() => void channels.reload()}
        onBack={toList}
      />
    );
  }

  return (
    <section class="admin-section" aria-labelledby="channels-title">
      <div class="section-head">
        <h3 id="channels-title">Channels</h3>
        <button
          type="button"
          class="button button--primary"
          aria-expanded={view.at === 'add'}
          onClick={() => setView({ at: view.at === 'add' ? 'list' : 'add' })}
        >
          Add channel
        </button>
      </div>
      {view.at === 'add' && (
        <div class="channel-kinds" role="group" aria-label="Kind of channel">
          <button type="button" class="kind-card" onClick={() => setView({ at: 'add-chat-api' })}>
            <strong>Chat API</strong>
            <span class="muted">Your own app posts customer messages to an endpoint and receives agent replies on its webhook.</span>
          </button>
          <button type="button" class="kind-card" onClick={() => setView({ at: 'add-widget' })}>
            <strong>Widget</strong>
            <span class="muted">A chat button for your website: paste one script tag.</span>
          </button>
        </div>
      )}
      <FormError message={channels.error} />
      {channels.data?.length === 0 && <p class="muted">No channels yet.</p>}
      <ul class="admin-list">
        {channels.data?.map((channel) => (
          <li key={channel.id}>
            <button type="button" class="admin-list-item" onClick={() => setView({ at: 'channel', id: channel.id })}>
              <span class="admin-list-name">{channel.name}</span>
              <span class="badge">{kindLabel[channel.kind]}</span>
              <span class="muted">{channel.status === 1 ? 'online' : 'offline'}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
