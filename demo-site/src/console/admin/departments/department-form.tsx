import { createDepartmentSchema, updateDepartmentSchema, type AgentView, type DepartmentView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { AgentCheckboxes } from '../ui/agent-checkboxes.tsx';
import { FormError } from '../ui/form-error.tsx';
import { TextField } from '../ui/text-field.tsx';
import { useSubmit } from '../ui/use-submit.ts';
import { validBody } from '../ui/valid-body.ts';

interface DepartmentFormProps {
  api: AdminApi;
  agents: AgentView[];
  /** Renames this department and changes its agents; without it, creates one. */
  department?: DepartmentView;
  onSaved: (department: DepartmentView) => void;
  onCancel?: () => void;
}

/** A department's name and its agents (spec 2.3). */
export function DepartmentForm({ api, agents, department, onSaved, onCancel }: DepartmentFormProps) {
  const [name, setName] = useState(department?.name ?? '');
  const [agentIds, setAgentIds] = useState<number[]>(department?.agent_ids ?? []);
  const form = useSubmit();
  const prefix = department ? `department-${department.id}` : 'department-new';
  const title = department ? `Edit ${department.name}` : 'New department';

  const submit = (event: Event) => {
    event.preventDefault();
    const body = { name, agent_ids: agentIds };
    void form.run(async () => {
      if (department) onSaved(await api.updateDepartment(department.id, validBody(updateDepartmentSchema, body)));
      else {
        onSaved(await api.createDepartment(validBody(createDepartmentSchema, body)));
        setName('');
        setAgentIds([]);
      }
    });
  };

  return (
    <form class="admin-form" onSubmit={submit} aria-label={title} noValidate>
      <TextField id={`${prefix}-name`} label="Department name" value={name} onInput={setName} />
      <AgentCheckboxes legend="Its agents" agents={agents} checked={agentIds} onChange={setAgentIds} />
      <FormError message={form.error} />
      <div class="form-actions">
        <button type="submit" class="button button--primary" disabled={form.busy}>
          {department ? 'Save department' : 'Create department'}
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
