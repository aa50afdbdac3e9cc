/** The periods a site owner picks most, ending today in the report's time zone. */
export const periodPresets = [
  { id: '7', label: 'Last 7 days', days: 7 },
  { id: '30', label: 'Last 30 days', days: 30 },
  { id: '90', label: 'Last 90 days', days: 90 },
  { id: '365', label: 'Last 365 days', days: 365 },
] as const;

export interface Period {
  from: string;
  to: string;
}

/** Today's date (YYYY-MM-DD) in an IANA time zone; the browser's own date when the zone is unknown. */
export function todayIn(timeZone: string, now = new Date()): string {
  try {
    // en-CA writes dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  }
}

/** The `days` days ending on `today`, both included. */
export function lastDays(days: number, today: string): Period {
  const end = new Date(`${today}T00:00:00Z`);
  const start = new Date(end.getTime() - (days - 1) * 86_400_000);
  return { from: start.toISOString().slice(0, 10), to: today };
}
