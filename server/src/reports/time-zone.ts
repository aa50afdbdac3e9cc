const DAY = 86_400_000;

/** True when `tz` is an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
const formatFor = (tz: string) => {
  let format = formats.get(tz);
  if (!format) {
    const options = { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit' } as const;
    formats.set(tz, (format = new Intl.DateTimeFormat('en-US', { ...options, hour: '2-digit', minute: '2-digit', second: '2-digit' })));
  }
  return format;
};

/** The offset of `tz` from UTC (ms, east positive) at the instant `at`. */
export function offsetAt(tz: string, at: number): number {
  const parts = Object.fromEntries(
    formatFor(tz)
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return local - Math.floor(at / 1000) * 1000;
}

/** The instant local midnight starts `date` (YYYY-MM-DD) in `tz`. */
export function startOfDay(date: string, tz: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`);
  let at = wall - offsetAt(tz, wall);
  // A second look settles days whose offset changes in the hours around midnight.
  at = wall - offsetAt(tz, at);
  return at;
}

/**
 * The offsets of `tz` between `from` and `to` and the instants they change, found by looking every six hours
 * and narrowing each change down to the minute (zones change at whole minutes at most every few weeks).
 */
export function offsetsBetween(tz: string, from: number, to: number): { offsets: number[]; switches: number[] } {
  const offsets = [offsetAt(tz, from)];
  const switches: number[] = [];
  const step = DAY / 4;
  for (let at = from; at < to; at += step) {
    const next = Math.min(at + step, to);
    if (offsetAt(tz, next) === offsets.at(-1)) continue;
    let low = at;
    let high = next;
    while (high - low > 60_000) {
      const mid = Math.floor((low + high) / 120_000) * 60_000;
      if (mid <= low) break;
      if (offsetAt(tz, mid) === offsets.at(-1)) low = mid;
      else high = mid;
    }
    switches.push(high);
    offsets.push(offsetAt(tz, high));
  }
  return { offsets, switches };
}

/** The local date (YYYY-MM-DD) of a day number `floor((instant + offset) / DAY)`. */
export const dayDate = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
export const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY;
