import { describe, expect, it } from 'vitest';
import { csatOf, formatSeconds, formatShare } from './report-format.ts';

describe('report figures as a site owner reads them', () => {
  it('writes durations in the two largest units', () => {
    expect(formatSeconds(0)).toBe('0 s');
    expect(formatSeconds(45)).toBe('45 s');
    expect(formatSeconds(60)).toBe('1 min');
    expect(formatSeconds(200)).toBe('3 min 20 s');
    expect(formatSeconds(7_500)).toBe('2 h 5 min');
    expect(formatSeconds(97_200)).toBe('1 d 3 h');
  });

  it('shows a dash where the period has no value', () => {
    expect(formatSeconds(null)).toBe('–');
    expect(formatShare(null)).toBe('–');
    expect(csatOf(0, 0)).toBeNull();
  });

  it('gives CSAT as positive over all ratings, in whole percent', () => {
    expect(formatShare(csatOf(2, 1))).toBe('67%');
    expect(formatShare(csatOf(3, 0))).toBe('100%');
  });
});
