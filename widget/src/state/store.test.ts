import { describe, expect, it } from 'vitest';
import { createStore } from './store.ts';

describe('store', () => {
  it('tells its listeners about every change, not about a value set again', () => {
    const store = createStore(1);
    const seen: number[] = [];
    const stop = store.subscribe((v) => seen.push(v));
    store.set(2);
    store.set((v) => v + 1);
    store.set(3);
    stop();
    store.set(4);
    expect(seen).toEqual([2, 3]);
    expect(store.get()).toBe(4);
  });
});
