import { describe, expect, it } from 'vitest';
import { lastDays, todayIn } from './report-period.ts';

describe('report periods', () => {
  it("takes today's date in the report's time zone", () => {
    const lateInUtc = new Date('2026-11-25T23:30:00Z');
    expect(todayIn('UTC', lateInUtc)).toBe('2026-11-25');
    expect(todayIn('Europe/Oslo', lateInUtc)).toBe('2026-11-26');
    expect(todayIn('America/New_York', lateInUtc)).toBe('2026-11-25');
  });

  it('counts both ends of the last days, across a month', () => {
    expect(lastDays(7, '2026-12-03')).toEqual({ from: '2026-11-27', to: '2026-12-03' });
    expect(lastDays(1, '2026-12-03')).toEqual({ from: '2026-12-03', to: '2026-12-03' });
  });
});
