import { useEffect, useState } from 'preact/hooks';
import type { Store } from '../state/store.ts';

/** The store's value, re-rendering the component on every change. */
export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(() => store.get());
  useEffect(() => {
    setValue(() => store.get());
    return store.subscribe((next) => setValue(() => next));
  }, [store]);
  return value;
}
