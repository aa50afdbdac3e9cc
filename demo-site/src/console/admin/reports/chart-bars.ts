export interface DayCount {
  date: string;
  chats: number;
  missed: number;
}

export interface DayBar extends DayCount {
  x: number;
  width: number;
  /** Top and height of the whole bar (every chat), then of its missed part, drawn at its foot. */
  y: number;
  height: number;
  missedY: number;
  missedHeight: number;
}

export interface ChartLayout {
  bars: DayBar[];
  /** The value of the top grid line: a round number at or above the busiest day. */
  top: number;
  /** The grid lines' values, from 0 to `top`. */
  ticks: number[];
}

/** A round step for about four grid lines: 1, 2 or 5 times a power of ten. */
function niceStep(max: number): number {
  const rough = Math.max(1, max / 4);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= rough)!;
  return Math.max(1, step);
}

/** Where each day's bar goes in a plot of `width` x `height` units, y growing downwards as in SVG. */
export function layoutBars(days: DayCount[], width: number, height: number): ChartLayout {
  const busiest = Math.max(0, ...days.map((d) => d.chats));
  const step = niceStep(busiest);
  const top = Math.max(step, Math.ceil(busiest / step) * step);
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  const slot = days.length > 0 ? width / days.length : width;
  const gap = slot > 4 ? slot * 0.2 : 0;
  const scale = (n: number) => (n / top) * height;
  const bars = days.map((d, i) => {
    const barHeight = scale(d.chats);
    const missedHeight = scale(d.missed);
    return {
      ...d,
      x: i * slot + gap / 2,
      width: slot - gap,
      y: height - barHeight,
      height: barHeight,
      missedY: height - missedHeight,
      missedHeight,
    };
  });
  return { bars, top, ticks };
}

/** Which days get a date under the axis: about `count` of them, evenly spaced, the first always. */
export function labelledDays(dayCount: number, count = 7): number[] {
  if (dayCount === 0) return [];
  const every = Math.max(1, Math.ceil(dayCount / count));
  const days: number[] = [];
  for (let i = 0; i < dayCount; i += every) days.push(i);
  return days;
}
