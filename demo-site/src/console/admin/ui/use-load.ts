import { useCallback, useEffect, useState } from 'preact/hooks';
import { errorText } from '../../api/api-error.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  reload: () => Promise<void>;
  /** Replaces the data after a change the API answered with, without another request. */
  set: (data: T) => void;
}

/** Data a screen reads from the admin API when it opens (`deps` change: read again). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload, set: setData };
}
