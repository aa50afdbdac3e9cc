/**
 * A value that components and services can watch. Each concern (inbox, conversation, presence,
 * connection) owns one, created when the console session starts and passed to whoever needs it.
 *
 * @example
 * const count = createStore(0);
 * const stop = count.subscribe((n) => console.log(n));
 * count.update((n) => n + 1); // logs 1
 * stop();
 */
export interface Store<T> {
  get(): T;
  set(next: T): void;
  update(change: (previous: T) => T): void;
  subscribe(listener: (value: T) => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  const set = (next: T) => {
    if (Object.is(next, value)) return;
    value = next;
    for (const listener of [...listeners]) listener(value);
  };
  return {
    get: () => value,
    set,
    update: (change) => set(change(value)),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
