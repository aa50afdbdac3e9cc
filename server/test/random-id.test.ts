import { describe, expect, it } from 'vitest';
import { newEventId, randomId } from '../src/lib/random-id.ts';

describe('random ids (event ids)', () => {
  it('are URL-safe, as long as randomToken makes them, and distinct across many refills of the pool', () => {
    // 2,000 x 16 bytes draws the 4 KiB pool ~8 times over.
    const ids = Array.from({ length: 2000 }, () => randomId(16));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('take sizes that do not divide the pool, and refuse more bytes than it holds', () => {
    const ids = Array.from({ length: 500 }, () => randomId(24));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(() => randomId(5000)).toThrow(RangeError);
  });
});

describe('outbound event ids', () => {
  it('are evt_ and 16 random bytes, URL-safe, and never the same twice, past a refill of their random pool', () => {
    const ids = Array.from({ length: 1000 }, () => newEventId());
    for (const id of ids) expect(id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
