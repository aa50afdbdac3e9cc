import { useRef, useState } from 'preact/hooks';

interface CopyFieldProps {
  label: string;
  value: string;
  /** Several lines (snippets, curl examples) show in a text area. */
  multiline?: boolean;
}

/**
 * A value to copy: read-only, with a Copy button. Where the Clipboard API is refused (plain http, no
 * permission) the text is selected instead, so Ctrl+C / the long-press menu copies it.
 */
export function CopyField({ label, value, multiline = false }: CopyFieldProps) {
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [note, setNote] = useState('');
  const inputId = `copy-${label.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setNote('Copied');
    } catch {
      field.current?.focus();
      field.current?.select();
      setNote('Selected: press Ctrl+C to copy');
    }
  };

  return (
    <div class="copy-field">
      <label for={inputId}>{label}</label>
      <div class="copy-field-row">
        {multiline ? (
          <textarea id={inputId} ref={field} readOnly rows={Math.min(8, Math.max(3, value.split('\n').length + 1))} value={value} />
        ) : (
          <input id={inputId} ref={field} readOnly value={value} />
        )}
        <button type="button" class="button" onClick={copy} aria-label={`Copy ${label}`}>
          Copy
        </button>
      </div>
      <span class="copy-note" role="status">
        {note}
      </span>
    </div>
  );
}
