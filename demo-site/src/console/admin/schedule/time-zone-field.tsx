import { TextField } from '../ui/text-field.tsx';

/** An IANA time zone, typed: the browser's own list is offered as suggestions where it has one. */
export function TimeZoneField({ id, value, onInput }: { id: string; value: string; onInput: (zone: string) => void }) {
  return (
    <TextField
      id={id}
      label="Time zone"
      value={value}
      onInput={onInput}
      placeholder="Europe/Oslo"
      help={`An IANA time zone such as Europe/Oslo or UTC; this browser is in ${Intl.DateTimeFormat().resolvedOptions().timeZone}.`}
    />
  );
}
