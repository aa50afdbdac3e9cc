import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from '../src/http/concurrency-limit.ts';

const WINDOW_MS = 20;

/** Keeps the event loop busy for `ms`, as a node with more requests than it can answer is. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until);
}
const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('adaptive admission limit', () => {
  it('shrinks while the event loop is saturated and requests are turned away, and grows back once it has time', async () => {
    const limit = createConcurrencyLimit({ max: 128, windowMs: WINDOW_MS });
    expect(limit.current()).toBe(128);
    for (let i = 0; i < 10; i++) {
      limit.limited();
      busy(WINDOW_MS + 5);
      limit.current();
    }
    const shrunk = limit.current();
    expect(shrunk).toBeLessThan(128 * 0.2);
    expect(shrunk).toBeGreaterThanOrEqual(128 / 16);

    for (let i = 0; i < 60 && limit.current() < 128; i++) {
      limit.limited();
      await idle(WINDOW_MS + 5);
    }
    expect(limit.current()).toBe(128);
  });

  it('stays at the ceiling under a saturating load it never has to refuse', () => {
    const limit = createConcurrencyLimit({ max: 128, windowMs: WINDOW_MS });
    for (let i = 0; i < 10; i++) {
      busy(WINDOW_MS + 5);
      limit.current();
    }
    expect(limit.current()).toBe(128);
  });
});
