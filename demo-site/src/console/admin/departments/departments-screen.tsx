import type { AgentView, DepartmentView } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { AdminApi } from '../admin-api.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormError } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { useSubmit } from '../ui/use-submit.ts';
import { DepartmentForm } from './department-form.tsx';

/** Departments (spec 2.3): named groups of agents that chats and invitations may belong to. */
export function DepartmentsScreen({ api }: { api: AdminApi }) {
  const departments = useLoad(() => api.listDepartments());
  const agents = useLoad(() => api.listAgents());
  const reload = () => void departments.reload();

  return (
    <section class="admin-section" aria-labelledby="departments-title">
      <h3 id="departments-title">Departments</h3>
      <FormError message={departments.error ?? agents.error} />
      {departments.data?.length === 0 && <p class="muted">No departments yet.</p>}
      <ul class="admin-list" aria-label="Departments">
        {departments.data?.map((department) => (
          <DepartmentItem key={department.id} api={api} department={department} agents={agents.data ?? []} onChanged={reload} />
        ))}
      </ul>
      <div class="admin-card">
        <h4>New department</h4>
        <DepartmentForm api={api} agents={agents.data ?? []} onSaved={reload} />
      </div>
    </section>
  );
}

interface DepartmentItemProps {
  api: AdminApi;
  department: DepartmentView;
  agents: AgentView[];
  onChanged: () => void;
}

function DepartmentItem({ api, department, agents, onChanged }: DepartmentItemProps) {
  const [editing, setEditing] = useState(false);
  const deletion = useSubmit();
  const members = agents.filter((a) => department.agent_ids.includes(a.id)).map((a) => a.name);
  const remove = () =>
    deletion.run(async () => {
      await api.deleteDepartment(department.id);
      onChanged();
    });

  if (editing)
    return (
      <li class="admin-list-row">
        <DepartmentForm
          api={api}
          agents={agents}
          department={department}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
          onCancel={() => setEditing(false)}
        />
      </li>
    );
  return (
    <li class="admin-list-row" aria-label={department.name}>
      <span class="admin-list-name">{department.name}</span>
      <span class="muted">{members.length > 0 ? members.join(', ') : 'No agents'}</span>
      <button type="button" class="button" onClick={() => setEditing(true)} aria-label={`Edit ${department.name}`}>
        Edit
      </button>
      <ConfirmButton
        label={`Delete ${department.name}`}
        question={`Delete the department "${department.name}"? Its chats stay, without a department.`}
        confirmLabel="Yes, delete it"
        onConfirm={remove}
      />
      <FormError message={deletion.error} />
    </li>
  );
}
