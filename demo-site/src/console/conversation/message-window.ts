/**
 * The arithmetic of a windowed list whose rows have different heights: where each row starts, which rows meet
 * a band of the scroll area, and the space that stands in for the rows left out above and below. Rows not
 * measured yet count as the average of those that were. No DOM here, so it is tested on its own.
 *
 * @example
 * const layout = layoutRows([40, 80, 40], 10); // rows start at 0, 50 and 140; 180 tall in all
 * windowOf(layout, 60, 60); // { start: 1, end: 2, padTop: 50, padBottom: 50 }
 */
export interface RowLayout {
  /** `starts[i]` is where row i begins; `starts[n]` is the end of the last row plus one gap. */
  starts: Float64Array;
  gap: number;
}

export interface RowWindow {
  /** The first row to render. */
  start: number;
  /** One past the last row to render. */
  end: number;
  /** Space for the rows before `start` (their heights and gaps). */
  padTop: number;
  /** Space for the rows from `end` on. */
  padBottom: number;
}

/** Where each row starts, rows being `heights` tall (undefined: not measured) and `gap` apart. */
export function layoutRows(heights: readonly (number | undefined)[], gap: number): RowLayout {
  let measured = 0;
  let sum = 0;
  for (const h of heights) {
    if (h === undefined) continue;
    measured += 1;
    sum += h;
  }
  const estimate = measured > 0 ? sum / measured : DEFAULT_ROW_PX;
  const starts = new Float64Array(heights.length + 1);
  for (let i = 0; i < heights.length; i++) starts[i + 1] = starts[i]! + (heights[i] ?? estimate) + gap;
  return { starts, gap };
}

/** A guess for the first render, before any row was measured: a one-line message with its header. */
export const DEFAULT_ROW_PX = 64;

/** The height of all rows with the gaps between them. */
export function totalHeight({ starts, gap }: RowLayout): number {
  const n = starts.length - 1;
  return n === 0 ? 0 : starts[n]! - gap;
}

/** The row at offset `y` (the last one when `y` is past the end, the first when before it). */
export function rowAt({ starts }: RowLayout, y: number): number {
  const n = starts.length - 1;
  if (n === 0) return 0;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The rows that meet the band `[top, top + height]`, and the space standing in for the others. */
export function windowOf(layout: RowLayout, top: number, height: number): RowWindow {
  const { starts } = layout;
  const n = starts.length - 1;
  if (n === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const start = rowAt(layout, Math.max(0, top));
  const end = Math.min(n, rowAt(layout, top + height) + 1);
  return { start, end, padTop: starts[start]!, padBottom: starts[n]! - starts[end]! };
}
