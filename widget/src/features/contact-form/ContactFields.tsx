import type { Ref } from 'preact';
import type { Texts } from '../../i18n/texts.ts';

const FIELDS = [
  { key: 'name', label: 'contact.name', type: 'text', autoComplete: 'name', max: 200 },
  { key: 'email', label: 'contact.email', type: 'email', autoComplete: 'email', max: 320 },
  { key: 'phone', label: 'contact.phone', type: 'tel', autoComplete: 'tel', max: 100 },
] as const;

export interface ContactValues {
  name?: string;
  email?: string;
  phone?: string;
}

/** The visitor's name, e-mail and phone as labelled inputs: the contacts form's and the offline form's. */
export function ContactFields<T extends ContactValues>({
  values,
  onChange,
  firstRef,
  texts,
}: {
  texts: Texts;
  values: T;
  onChange: (values: T) => void;
  firstRef?: Ref<HTMLInputElement>;
}) {
  return (
    <>
      {FIELDS.map((field, i) => (
        <label key={field.key}>
          {texts.t(field.label)}
          <input
            ref={i === 0 ? firstRef : undefined}
            type={field.type}
            autoComplete={field.autoComplete}
            maxLength={field.max}
            value={values[field.key] ?? ''}
            onInput={(event) => onChange({ ...values, [field.key]: event.currentTarget.value })}
          />
        </label>
      ))}
    </>
  );
}
