import type { AgentView } from '@svc/protocol';
import type { AdminApi } from '../admin-api.ts';
import { FormError } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { AgentForm } from './agent-form.tsx';
import { AgentRow } from './agent-row.tsx';

/** Agents: who answers chats (and who administers), their channels, and who may still log in. */
export function AgentsScreen({ api, me }: { api: AdminApi; me: AgentView }) {
  const agents = useLoad(() => api.listAgents());
  // GET /api/v1/agents has no channel_ids: the channels' agent_ids say the same in one request.
  const channels = useLoad(() => api.listChannels());
  const reload = () => {
    void agents.reload();
    void channels.reload();
  };

  return (
    <section class="admin-section" aria-labelledby="agents-title">
      <h3 id="agents-title">Agents</h3>
      <FormError message={agents.error ?? channels.error} />
      <ul class="admin-list" aria-label="Agents">
        {agents.data?.map((agent) => (
          <AgentRow key={agent.id} api={api} agent={agent} channels={channels.data ?? []} isMe={agent.id === me.id} onChanged={reload} />
        ))}
      </ul>
      <div class="admin-card">
        <h4>Invite an agent</h4>
        <AgentForm api={api} channels={channels.data ?? []} onSaved={reload} />
      </div>
    </section>
  );
}
