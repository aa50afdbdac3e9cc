import { describe, expect, it } from 'vitest';
import { DEFAULT_ROW_PX, layoutRows, rowAt, totalHeight, windowOf } from './message-window.ts';

describe('message window', () => {
  describe('when every row was measured', () => {
    const layout = layoutRows([40, 80, 40], 10);

    it('starts each row after the rows and gaps above it', () => {
      expect([...layout.starts]).toEqual([0, 50, 140, 190]);
      expect(totalHeight(layout)).toBe(180);
    });

    it('finds the row at an offset, a gap counting with the row above it', () => {
      expect(rowAt(layout, 0)).toBe(0);
      expect(rowAt(layout, 45)).toBe(0);
      expect(rowAt(layout, 50)).toBe(1);
      expect(rowAt(layout, 1000)).toBe(2);
      expect(rowAt(layout, -5)).toBe(0);
    });

    it('renders the rows meeting the band and stands space in for the others, the whole height kept', () => {
      const window = windowOf(layout, 60, 60);
      expect(window).toEqual({ start: 1, end: 2, padTop: 50, padBottom: 50 });
      // The one row rendered (80 px) between the two spaces: as tall as the whole list.
      expect(window.padTop + 80 + window.padBottom).toBe(totalHeight(layout));
    });
  });

  describe('when some rows were not measured yet', () => {
    it('counts them as the average of the measured ones', () => {
      expect([...layoutRows([100, undefined, 50], 0).starts]).toEqual([0, 100, 175, 225]);
    });

    it('counts them as a one-line message before anything was measured', () => {
      expect(totalHeight(layoutRows([undefined, undefined], 0))).toBe(2 * DEFAULT_ROW_PX);
    });
  });

  it('keeps a window of a 30,000-row list to the rows in the band', () => {
    const layout = layoutRows(
      Array.from({ length: 30_000 }, (_, i) => 40 + (i % 3) * 20),
      12,
    );
    const top = layout.starts[20_000]!;
    const window = windowOf(layout, top, 700);
    expect(window.start).toBe(20_000);
    expect(window.end - window.start).toBeLessThan(20);
    expect(window.padTop).toBe(top);
  });

  it('is empty for an empty list', () => {
    expect(windowOf(layoutRows([], 12), 0, 500)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });
});
