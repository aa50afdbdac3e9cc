import { useState } from 'preact/hooks';
import { errorText } from '../../api/api-error.ts';

export interface Submission {
  /** Why the last attempt failed (our check or the API's message), else null. */
  error: string | null;
  busy: boolean;
  /** What the last successful attempt did ("Saved."), until the next attempt. */
  notice: string | null;
  /** Runs the form's action; whatever it throws becomes `error`, success shows `done` as the notice. */
  run: (action: () => Promise<void>, done?: string) => Promise<void>;
}

/** The busy flag and error message every admin form shows. */
export function useSubmit(): Submission {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const run = async (action: () => Promise<void>, done?: string) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
      setNotice(done ?? null);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, notice, run };
}
