import { describe, expect, it } from 'vitest';
import { labelledDays, layoutBars } from './chart-bars.ts';

const day = (date: string, chats: number, missed = 0) => ({ date, chats, missed });

describe('chats per day chart', () => {
  it('scales the busiest day to a round top line and stands bars on the axis', () => {
    const { bars, top, ticks } = layoutBars([day('2026-11-01', 7, 2), day('2026-11-02', 0), day('2026-11-03', 3)], 300, 100);
    expect(top).toBe(8);
    expect(ticks).toEqual([0, 2, 4, 6, 8]);
    expect(bars[0]!.height).toBeCloseTo(87.5);
    expect(bars[0]!.y + bars[0]!.height).toBeCloseTo(100);
    expect(bars[0]!.missedHeight).toBeCloseTo(25);
    expect(bars[1]!.height).toBe(0);
    expect(bars[2]!.x).toBeGreaterThan(bars[1]!.x + bars[1]!.width);
    expect(bars[2]!.x + bars[2]!.width).toBeLessThanOrEqual(300);
  });

  it('draws a period without chats with a top line of 1', () => {
    const { top, bars } = layoutBars([day('2026-11-01', 0)], 100, 50);
    expect(top).toBe(1);
    expect(bars[0]!.height).toBe(0);
  });

  it('labels about seven days of a long period, the first included', () => {
    expect(labelledDays(30)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(labelledDays(3)).toEqual([0, 1, 2]);
    expect(labelledDays(0)).toEqual([]);
  });
});
