import { createChatApiChannelSchema, updateChannelSchema, type AgentView, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { AgentCheckboxes } from '../ui/agent-checkboxes.tsx';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

interface ChatApiFormProps {
  api: AdminApi;
  agents: AgentView[];
  /** Edits this channel; without it, connects a new one. */
  channel?: ChannelView;
  onSaved: (channel: ChannelView) => void;
  onCancel?: () => void;
}

/** spec 1.3: a Chat API channel's name, the integrator's webhook URL, chunked encoding and the agents who receive its chats. */
export function ChatApiForm({ api, agents, channel, onSaved, onCancel }: ChatApiFormProps) {
  const [name, setName] = useState(channel?.name ?? '');
  const [webhookUrl, setWebhookUrl] = useState(channel?.webhook_url ?? '');
  const [chunked, setChunked] = useState(channel?.chunked ?? false);
  const [agentIds, setAgentIds] = useState<number[]>(channel?.agent_ids ?? []);
  const form = useSubmit();
  const idPrefix = channel ? `chat-api-${channel.id}` : 'chat-api-new';

  const submit = (event: Event) => {
    event.preventDefault();
    const fields = { name, webhook_url: webhookUrl, chunked, agent_ids: agentIds };
    void form.run(
      async () => {
        if (channel) onSaved(await api.updateChannel(channel.id, validBody(updateChannelSchema, fields)));
        else onSaved(await api.createChannel(validBody(createChatApiChannelSchema, { kind: 'chat_api', ...fields })));
      },
      channel ? 'Saved.' : undefined,
    );
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby={`${idPrefix}-title`} noValidate>
      <h3 id={`${idPrefix}-title`}>{channel ? 'Edit Chat API channel' : 'Connect a Chat API channel'}</h3>
      <label for={`${idPrefix}-name`}>Channel name</label>
      <input id={`${idPrefix}-name`} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for={`${idPrefix}-webhook`}>Webhook URL of your system</label>
      <input
        id={`${idPrefix}-webhook`}
        type="url"
        required
        placeholder="https://app.example.com/svc"
        aria-describedby={`${idPrefix}-webhook-help`}
        value={webhookUrl}
        onInput={(e) => setWebhookUrl(e.currentTarget.value)}
      />
      <p id={`${idPrefix}-webhook-help`} class="help">
        Agent replies are posted to this URL followed by the channel id.
      </p>
      <label class="checkbox">
        <input type="checkbox" checked={chunked} onChange={(e) => setChunked(e.currentTarget.checked)} />
        <span>Send replies with chunked encoding</span>
      </label>
      <AgentCheckboxes legend="Agents who receive its chats" agents={agents} checked={agentIds} onChange={setAgentIds} />
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          {channel ? 'Save changes' : 'Connect'}
        </button>
        {onCancel && (
          <button type="button" class="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
