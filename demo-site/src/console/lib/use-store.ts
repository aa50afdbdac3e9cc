import { useEffect, useState } from 'preact/hooks';
import type { Store } from './create-store.ts';

/** The store's current value; the component renders again whenever it changes. */
export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(() => store.get());
  useEffect(() => {
    setValue(() => store.get());
    return store.subscribe((next) => setValue(() => next));
  }, [store]);
  return value;
}
