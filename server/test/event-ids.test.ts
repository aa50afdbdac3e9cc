import { describe, expect, it } from 'vitest';
import { newEventId } from '../src/lib/secrets.ts';

describe('outbound event ids', () => {
  it('are evt_ and 16 random bytes, URL-safe, and never the same twice, past a refill of their random pool', () => {
    const ids = Array.from({ length: 1000 }, () => newEventId());
    for (const id of ids) expect(id).toMatch(/^evt_[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
