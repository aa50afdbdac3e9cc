import { outsideHoursPolicies, type OutsideHoursPolicy } from '@svc/protocol';

const policies: Record<OutsideHoursPolicy, { label: string; explanation: string }> = {
  offline_form: {
    label: 'Offline form only',
    explanation: 'The channel is offline: visitors can leave a message, and the Chat API status URL answers 0.',
  },
  hide: {
    label: 'Hide the widget',
    explanation: 'As offline, and pages loaded meanwhile do not show the widget at all (svc_api still answers).',
  },
  accept: {
    label: 'Accept chats anyway',
    explanation: 'Chats are taken as inside the hours, while an agent is online.',
  },
};

/** What happens outside the hours: one radio button each, with its consequence in one line. */
export function OutsideHoursChoice({ value, onChange }: { value: OutsideHoursPolicy; onChange: (policy: OutsideHoursPolicy) => void }) {
  return (
    <fieldset class="checkbox-group">
      <legend>Outside the hours</legend>
      {outsideHoursPolicies.map((policy) => (
        <label key={policy} class="checkbox">
          <input
            type="radio"
            name="outside-hours"
            checked={value === policy}
            onChange={() => onChange(policy)}
            aria-describedby={`outside-${policy}-help`}
          />
          <span>
            {policies[policy].label}
            <span id={`outside-${policy}-help`} class="help">
              {' '}
              {policies[policy].explanation}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
