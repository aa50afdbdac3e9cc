import { createWidgetChannelSchema, updateChannelSchema, type AgentView, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { AgentCheckboxes } from '../ui/agent-checkboxes.tsx';
import { FormError, FormNotice } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

interface WidgetFormProps {
  api: AdminApi;
  agents: AgentView[];
  /** Edits this widget channel; without it, creates one. */
  channel?: ChannelView;
  onSaved: (channel: ChannelView) => void;
  onCancel?: () => void;
}

/** A widget channel's name and the agents who answer its visitors. */
export function WidgetForm({ api, agents, channel, onSaved, onCancel }: WidgetFormProps) {
  const [name, setName] = useState(channel?.name ?? '');
  const [agentIds, setAgentIds] = useState<number[]>(channel?.agent_ids ?? []);
  const form = useSubmit();
  const idPrefix = channel ? `widget-${channel.id}` : 'widget-new';

  const submit = (event: Event) => {
    event.preventDefault();
    const fields = { name, agent_ids: agentIds };
    void form.run(
      async () => {
        if (channel) onSaved(await api.updateChannel(channel.id, validBody(updateChannelSchema, fields)));
        else onSaved(await api.createChannel(validBody(createWidgetChannelSchema, { kind: 'widget', ...fields })));
      },
      channel ? 'Saved.' : undefined,
    );
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-labelledby={`${idPrefix}-title`} noValidate>
      <h3 id={`${idPrefix}-title`}>{channel ? 'Name and agents' : 'Create a widget channel'}</h3>
      <label for={`${idPrefix}-name`}>Channel name</label>
      <input id={`${idPrefix}-name`} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <AgentCheckboxes legend="Agents who answer its visitors" agents={agents} checked={agentIds} onChange={setAgentIds} />
      <FormError message={form.error} />
      <FormNotice message={form.notice} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          {channel ? 'Save changes' : 'Create widget'}
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
