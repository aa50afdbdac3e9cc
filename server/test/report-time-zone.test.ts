import { describe, expect, it } from 'vitest';
import { offsetsBetween, startOfDay } from '../src/reports/time-zone.ts';
import { percentile } from '../src/reports/report-view.ts';

describe('report days in a time zone', () => {
  it('starts a day at local midnight, across a daylight saving change', () => {
    expect(new Date(startOfDay('2026-03-29', 'Europe/Paris')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(startOfDay('2026-03-30', 'Europe/Paris')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(new Date(startOfDay('2026-01-01', 'Asia/Kolkata')).toISOString()).toBe('2025-12-31T18:30:00.000Z');
  });

  it('finds the instant the offset changes', () => {
    const from = startOfDay('2026-03-01', 'Europe/Paris');
    const to = startOfDay('2026-04-01', 'Europe/Paris');
    expect(offsetsBetween('Europe/Paris', from, to)).toEqual({
      offsets: [3_600_000, 7_200_000],
      switches: [Date.parse('2026-03-29T01:00:00Z')],
    });
    expect(offsetsBetween('UTC', from, to)).toEqual({ offsets: [0], switches: [] });
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const h = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((seconds) => ({ seconds, count: 1 }));
    expect(percentile(h, 0.5)).toBe(5);
    expect(percentile(h, 0.9)).toBe(9);
    expect(percentile([{ seconds: 7, count: 3 }], 0.9)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});
