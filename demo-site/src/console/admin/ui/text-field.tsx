interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'number' | 'url' | 'email' | 'password';
  help?: string;
  placeholder?: string;
  /** Several values, one per line. */
  multiline?: boolean;
}

/** A labelled input, with its help text tied to it for screen readers. */
export function TextField({ id, label, value, onInput, type = 'text', help, placeholder, multiline = false }: TextFieldProps) {
  const helpId = help ? `${id}-help` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? (
        <textarea
          id={id}
          rows={2}
          placeholder={placeholder}
          aria-describedby={helpId}
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      ) : (
        <input
          id={id}
          type={type}
          placeholder={placeholder}
          aria-describedby={helpId}
          value={value}
          onInput={(e) => onInput(e.currentTarget.value)}
        />
      )}
      {help && (
        <p id={helpId} class="help">
          {help}
        </p>
      )}
    </div>
  );
}
