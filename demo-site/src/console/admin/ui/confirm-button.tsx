import { useEffect, useRef, useState } from 'preact/hooks';

interface ConfirmButtonProps {
  /** The button's text, e.g. "Delete channel". */
  label: string;
  /** The question asked before acting, e.g. `Delete the channel "Shop"? Its endpoint stops working.` */
  question: string;
  /** The confirming button's text. */
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  danger?: boolean;
}

/** An action that asks first, in the page (not a browser dialog), so it stays keyboard and screen-reader friendly. */
export function ConfirmButton({ label, question, confirmLabel, onConfirm, danger = true }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  // Keyboard users land on Cancel when asked, and back on the action when the question goes away.
  useEffect(() => {
    if (asking) cancel.current?.focus();
    else if (asked.current) trigger.current?.focus();
    asked.current = asking;
  }, [asking]);
  const style = danger ? 'button button--danger' : 'button';
  if (!asking)
    return (
      <button type="button" ref={trigger} class={style} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  return (
    <div class="confirm" role="group" aria-label={label}>
      <p>{question}</p>
      <button type="button" class={style} disabled={busy} onClick={confirm}>
        {confirmLabel}
      </button>
      <button type="button" ref={cancel} class="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </div>
  );
}
