import type { FrameInit, Saved, SavedKey } from '../bridge/messages.ts';

/**
 * The values the widget keeps across pages (bridge/messages.ts Saved): read from what the loader handed over,
 * written back through it to the site's own storage, and updated when another tab saves.
 */
export interface SavedState {
  get(key: SavedKey): string | null;
  set(key: SavedKey, value: string | null): void;
  /** Another tab saved a value. */
  receive(saved: Saved): void;
  onReceive(listener: (saved: Saved, previous: string | null) => void): void;
}

export function savedState(initial: FrameInit['saved'], save: (saved: Saved) => void): SavedState {
  const values = new Map<SavedKey, string>(Object.entries(initial ?? {}) as [SavedKey, string][]);
  const listeners: ((saved: Saved, previous: string | null) => void)[] = [];
  const put = ({ key, value }: Saved) => (value === null ? values.delete(key) : values.set(key, value));
  return {
    get: (key) => values.get(key) ?? null,
    set(key, value) {
      if ((values.get(key) ?? null) === value) return;
      put({ key, value });
      save({ key, value });
    },
    receive(saved) {
      const previous = values.get(saved.key) ?? null;
      put(saved);
      for (const listener of listeners) listener(saved, previous);
    },
    onReceive: (listener) => void listeners.push(listener),
  };
}
