import { agentRoles, createAgentSchema, type AgentRole, type ChannelView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi, CreatedAgent } from '../admin-api.ts';
import { ChannelCheckboxes } from '../ui/channel-checkboxes.tsx';
import { FormError } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

export const roleLabel: Record<AgentRole, string> = { admin: 'Admin', agent: 'Agent' };

/** Invites an agent: its login (e-mail and a first password to hand over), its role and its channels. */
export function AgentForm({ api, channels, onSaved }: { api: AdminApi; channels: ChannelView[]; onSaved: (agent: CreatedAgent) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<AgentRole>('agent');
  const [channelIds, setChannelIds] = useState<number[]>([]);
  const form = useSubmit();

  const submit = (event: Event) => {
    event.preventDefault();
    const body = { name, email, password, role, channel_ids: channelIds };
    void form.run(async () => {
      const created = await api.createAgent(validBody(createAgentSchema, body));
      setName('');
      setEmail('');
      setPassword('');
      setRole('agent');
      setChannelIds([]);
      onSaved(created);
    }, `Agent created: ${email.trim()} can log in with the password you chose.`);
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-label="Invite an agent" noValidate>
      <div class="field-row">
        <TextField id="agent-new-name" label="Name" value={name} onInput={setName} />
        <TextField id="agent-new-email" label="E-mail" type="email" value={email} onInput={setEmail} />
      </div>
      <TextField
        id="agent-new-password"
        label="Password"
        type="password"
        help="At least 8 characters; the agent can log in with it at once."
        value={password}
        onInput={setPassword}
      />
      <label for="agent-new-role">Role</label>
      <select id="agent-new-role" value={role} onChange={(e) => setRole(e.currentTarget.value as AgentRole)}>
        {agentRoles.map((r) => (
          <option key={r} value={r}>
            {roleLabel[r]}
          </option>
        ))}
      </select>
      <ChannelCheckboxes legend="Channels whose chats it receives" channels={channels} checked={channelIds} onChange={setChannelIds} />
      <FormError message={form.error} />
      <p class="form-notice" role="status">
        {form.notice}
      </p>
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          Create agent
        </button>
      </div>
    </form>
  );
}
