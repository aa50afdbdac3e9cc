import { TextField } from '../ui/text-field.tsx';
import { utmKeys, type RuleDraft } from './rule-draft.ts';

interface RuleConditionsProps {
  draft: RuleDraft;
  prefix: string;
  onChange: (change: Partial<RuleDraft>) => void;
}

/** When a rule fires (docs/widget.md, Triggers): every condition given must hold; empty ones are left out. */
export function RuleConditions({ draft, prefix, onChange }: RuleConditionsProps) {
  return (
    <fieldset class="sub-group">
      <legend>Conditions</legend>
      <TextField
        id={`${prefix}-time`}
        label="Time on page (seconds)"
        type="number"
        value={draft.timeOnPage}
        onInput={(timeOnPage) => onChange({ timeOnPage })}
      />
      <TextField
        id={`${prefix}-page-url`}
        label="Page URL patterns"
        multiline
        placeholder="*/pricing*"
        help="One per line; * stands for any characters. The page must match one."
        value={draft.pageUrl}
        onInput={(pageUrl) => onChange({ pageUrl })}
      />
      <TextField
        id={`${prefix}-page-url-not`}
        label="Excluded URL patterns"
        multiline
        help="One per line. The page must match none."
        value={draft.pageUrlNot}
        onInput={(pageUrlNot) => onChange({ pageUrlNot })}
      />
      <div class="field-row">
        <TextField
          id={`${prefix}-visit-min`}
          label="Visit count at least"
          type="number"
          value={draft.visitMin}
          onInput={(visitMin) => onChange({ visitMin })}
        />
        <TextField
          id={`${prefix}-visit-max`}
          label="Visit count at most"
          type="number"
          value={draft.visitMax}
          onInput={(visitMax) => onChange({ visitMax })}
        />
      </div>
      <TextField
        id={`${prefix}-referrer`}
        label="Referrer patterns"
        multiline
        placeholder="*google.*"
        help="One per line. The referrer must match one."
        value={draft.referrer}
        onInput={(referrer) => onChange({ referrer })}
      />
      <label class="checkbox">
        <input type="checkbox" checked={draft.noReferrer} onChange={(e) => onChange({ noReferrer: e.currentTarget.checked })} />
        <span>Also match visits without a referrer</span>
      </label>
      <div class="field-row">
        {utmKeys.map((key) => (
          <TextField
            key={key}
            id={`${prefix}-utm-${key}`}
            label={`UTM ${key}`}
            value={draft.utm[key]}
            onInput={(value) => onChange({ utm: { ...draft.utm, [key]: value } })}
          />
        ))}
      </div>
      <label for={`${prefix}-mode`}>Chat mode</label>
      <select
        id={`${prefix}-mode`}
        value={draft.chatMode}
        onChange={(e) => onChange({ chatMode: e.currentTarget.value as RuleDraft['chatMode'] })}
      >
        <option value="">Any</option>
        <option value="online">Only while an agent is online</option>
        <option value="offline">Only while no agent is online</option>
      </select>
    </fieldset>
  );
}
