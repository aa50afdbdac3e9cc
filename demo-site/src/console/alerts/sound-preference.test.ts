import { describe, expect, it } from 'vitest';
import { createSoundPreference } from './sound-preference.ts';

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('the sound preference', () => {
  it('is off for an agent who never chose (opt-in), and an agent’s on is kept for them only', () => {
    const storage = memoryStorage();
    const alice = createSoundPreference(storage, 1);
    expect(alice.get()).toBe(false);
    alice.set(true);
    expect(createSoundPreference(storage, 1).get()).toBe(true);
    expect(createSoundPreference(storage, 2).get()).toBe(false);
    alice.set(false);
    expect(createSoundPreference(storage, 1).get()).toBe(false);
  });
});
