import type { AgentView } from '@svc/protocol';

interface AgentCheckboxesProps {
  legend: string;
  agents: AgentView[];
  checked: number[];
  onChange: (ids: number[]) => void;
}

/** The agents to pick for a channel or a department, by name and e-mail. */
export function AgentCheckboxes({ legend, agents, checked, onChange }: AgentCheckboxesProps) {
  const toggle = (id: number, on: boolean) => onChange(on ? [...checked, id].sort((a, b) => a - b) : checked.filter((c) => c !== id));
  return (
    <fieldset class="checkbox-group">
      <legend>{legend}</legend>
      {agents.length === 0 && <p class="muted">No agents yet.</p>}
      {agents.map((agent) => (
        <label key={agent.id} class="checkbox">
          <input type="checkbox" checked={checked.includes(agent.id)} onChange={(e) => toggle(agent.id, e.currentTarget.checked)} />
          <span>
            {agent.name} <span class="muted">({agent.email})</span>
            {!agent.active && <span class="muted"> · inactive</span>}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
