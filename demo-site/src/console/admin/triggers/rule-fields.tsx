import { triggerFrequencies, type DepartmentView } from '@svc/protocol';
import { TextField } from '../ui/text-field.tsx';
import { RuleConditions } from './rule-conditions.tsx';
import type { RuleDraft } from './rule-draft.ts';

interface RuleFieldsProps {
  draft: RuleDraft;
  index: number;
  departments: DepartmentView[];
  onChange: (change: Partial<RuleDraft>) => void;
  onRemove: () => void;
}

const frequencyLabel = {
  once_per_visit: 'Once per visit',
  once_per_visitor: 'Once per visitor',
  every_page: 'On every page',
} as const;

/** One trigger rule: who it is, when it fires and what it does. */
export function RuleFields({ draft, index, departments, onChange, onRemove }: RuleFieldsProps) {
  const prefix = `rule-${draft.key}`;
  return (
    <fieldset class="rule">
      <legend>Rule {index + 1}</legend>
      <div class="field-row">
        <TextField
          id={`${prefix}-id`}
          label="Rule id"
          placeholder="pricing-help"
          help="Letters, digits, _ or -; the widget remembers a fired rule by it."
          value={draft.id}
          onInput={(id) => onChange({ id })}
        />
        <TextField id={`${prefix}-name`} label="Rule name" value={draft.name} onInput={(name) => onChange({ name })} />
      </div>
      <label class="checkbox">
        <input type="checkbox" checked={draft.enabled} onChange={(e) => onChange({ enabled: e.currentTarget.checked })} />
        <span>Enabled</span>
      </label>
      <label for={`${prefix}-frequency`}>Frequency</label>
      <select
        id={`${prefix}-frequency`}
        value={draft.frequency}
        onChange={(e) => onChange({ frequency: e.currentTarget.value as RuleDraft['frequency'] })}
      >
        {triggerFrequencies.map((f) => (
          <option key={f} value={f}>
            {frequencyLabel[f]}
          </option>
        ))}
      </select>
      <RuleConditions draft={draft} prefix={prefix} onChange={onChange} />
      <fieldset class="sub-group">
        <legend>Action</legend>
        <label class="checkbox">
          <input
            type="radio"
            name={`${prefix}-action`}
            checked={draft.action === 'invite'}
            onChange={() => onChange({ action: 'invite' })}
          />
          <span>Show an invitation</span>
        </label>
        <label class="checkbox">
          <input type="radio" name={`${prefix}-action`} checked={draft.action === 'open'} onChange={() => onChange({ action: 'open' })} />
          <span>Open the chat window</span>
        </label>
        {draft.action === 'invite' && (
          <>
            <TextField
              id={`${prefix}-text`}
              label="Invitation text"
              multiline
              value={draft.inviteText}
              onInput={(inviteText) => onChange({ inviteText })}
            />
            <label for={`${prefix}-department`}>Department of the chat</label>
            <select
              id={`${prefix}-department`}
              value={draft.departmentId}
              onChange={(e) => onChange({ departmentId: e.currentTarget.value })}
            >
              <option value="">None</option>
              {departments.map((d) => (
                <option key={d.id} value={String(d.id)}>
                  {d.name}
                </option>
              ))}
            </select>
          </>
        )}
      </fieldset>
      <button type="button" class="button button--danger" onClick={onRemove}>
        Remove rule {index + 1}
      </button>
    </fieldset>
  );
}
