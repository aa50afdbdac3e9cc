/** A small observable value: one per concern (conversation, outbox, view...), created at start and passed in. */
export interface Store<T> {
  get(): T;
  set(next: T | ((current: T) => T)): void;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: (value: T) => void): () => void;
}

/**
 * @example
 * const unread = createStore(0);
 * unread.subscribe((n) => console.log(n));
 * unread.set((n) => n + 1); // logs 1
 */
export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      const updated = typeof next === 'function' ? (next as (current: T) => T)(value) : next;
      if (Object.is(updated, value)) return;
      value = updated;
      for (const listener of [...listeners]) listener(value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
