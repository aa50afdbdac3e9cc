import { agentRoles, updateAgentSchema, type AgentRole, type AgentView, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import { AgentPhoto, PhotoPicker } from '../../profile/photo-picker.tsx';
import type { AdminApi } from '../admin-api.ts';
import { ChannelCheckboxes } from '../ui/channel-checkboxes.tsx';
import { FormError } from '../ui/form-error.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';
import { roleLabel } from './agent-form.tsx';

interface AgentRowProps {
  api: AdminApi;
  agent: AgentView;
  channels: ChannelView[];
  isMe: boolean;
  onChanged: () => void;
}

/** One agent: who it is, its state, and its role, channels and activation to change. */
export function AgentRow({ api, agent, channels, isMe, onChanged }: AgentRowProps) {
  const [editing, setEditing] = useState(false);
  const [role, setRole] = useState<AgentRole>(agent.role);
  const agentChannels = channels.filter((c) => c.agent_ids.includes(agent.id));
  const [channelIds, setChannelIds] = useState<number[]>(agentChannels.map((c) => c.id));
  const action = useSubmit();
  const prefix = `agent-${agent.id}`;

  const save = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await api.updateAgent(agent.id, validBody(updateAgentSchema, { role, channel_ids: channelIds }));
      setEditing(false);
      onChanged();
    });
  };
  const setActive = (active: boolean) =>
    action.run(async () => {
      await api.updateAgent(agent.id, { active });
      onChanged();
    });
  const changed = (photo: string | null) => {
    onChanged();
    return photo;
  };
  const startEditing = () => {
    setRole(agent.role);
    setChannelIds(agentChannels.map((c) => c.id));
    setEditing(true);
  };

  return (
    <li class="admin-list-row" aria-label={agent.name}>
      <span class="admin-list-name">
        <AgentPhoto name={agent.name} photo={agent.photo} size={28} />
        {agent.name}
        {isMe && <span class="muted"> (you)</span>}
      </span>
      <span class="badge">{roleLabel[agent.role]}</span>
      {!agent.active && <span class="badge badge--muted">Deactivated</span>}
      <span class="agent-facts">
        <span>{agent.email}</span>
        <span>{agent.status === 'online' ? 'Online' : 'Offline'}</span>
        <span>Channels: {agentChannels.length > 0 ? agentChannels.map((c) => c.name).join(', ') : 'none'}</span>
      </span>
      {editing && (
        <PhotoPicker
          name={agent.name}
          photo={agent.photo}
          upload={async (file) => changed((await api.putAgentPhoto(agent.id, file)).photo)}
          remove={async () => changed((await api.deleteAgentPhoto(agent.id)).photo)}
        />
      )}
      {editing ? (
        <form class="admin-form" onSubmit={save} aria-label={`Edit ${agent.name}`} noValidate>
          <label for={`${prefix}-role`}>Role</label>
          <select id={`${prefix}-role`} value={role} onChange={(e) => setRole(e.currentTarget.value as AgentRole)}>
            {agentRoles.map((r) => (
              <option key={r} value={r}>
                {roleLabel[r]}
              </option>
            ))}
          </select>
          <ChannelCheckboxes legend="Channels whose chats it receives" channels={channels} checked={channelIds} onChange={setChannelIds} />
          <div class="form-actions">
            <button type="submit" class="button button--primary" disabled={action.busy}>
              Save agent
            </button>
            <button type="button" class="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div class="form-actions">
          <button type="button" class="button" onClick={startEditing} aria-label={`Edit ${agent.name}`}>
            Edit
          </button>
          <button type="button" class="button" disabled={action.busy} onClick={() => setActive(!agent.active)}>
            {agent.active ? 'Deactivate' : 'Reactivate'}
          </button>
        </div>
      )}
      <FormError message={action.error} />
    </li>
  );
}
