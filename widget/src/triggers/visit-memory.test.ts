import type { TriggerRule } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { countPageView, mayFire, VISIT_GAP_MS } from './visit-memory.ts';

const rule = (frequency: TriggerRule['frequency']): TriggerRule => ({
  id: 'r',
  enabled: true,
  frequency,
  conditions: {},
  action: { type: 'open' },
});

describe('visit memory', () => {
  it('counts a new visit after 30 minutes without a page view, and starts afresh from broken storage', () => {
    const first = countPageView(null, 1_000);
    expect(first.visit).toBe(1);
    const sameVisit = countPageView(JSON.stringify(first), 1_000 + VISIT_GAP_MS);
    expect(sameVisit.visit).toBe(1);
    const nextVisit = countPageView(JSON.stringify(sameVisit), 2_000 + 2 * VISIT_GAP_MS);
    expect(nextVisit.visit).toBe(2);
    expect(countPageView('{not json', 5).visit).toBe(1);
    expect(countPageView('{"visit":"x"}', 5).visit).toBe(1);
  });

  it('lets a rule fire again as its frequency says', () => {
    const memory = { visit: 3, last: 0, fired: { r: 3 } };
    expect(mayFire(rule('every_page'), memory)).toBe(true);
    expect(mayFire(rule('once_per_visit'), memory)).toBe(false);
    expect(mayFire(rule('once_per_visit'), { ...memory, visit: 4 })).toBe(true);
    expect(mayFire(rule('once_per_visitor'), { ...memory, visit: 4 })).toBe(false);
    expect(mayFire(rule('once_per_visitor'), { ...memory, fired: {} })).toBe(true);
  });
});
