import type { ReportDurations, ReportView } from '@svc/protocol';
import type { Histogram, ReportAggregates } from '../store/reports.ts';
import { dayDate, dayNumber } from './time-zone.ts';

/** The nearest-rank percentile (`p` in 0..1) of a histogram sorted by seconds: the smallest value with at
 * least `p` of the chats at or below it. */
export function percentile(histogram: Histogram, p: number): number | null {
  const total = histogram.reduce((sum, h) => sum + h.count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const h of histogram) {
    seen += h.count;
    if (seen >= rank) return h.seconds;
  }
  return histogram.at(-1)!.seconds;
}

const durations = (h: Histogram): ReportDurations => ({ median: percentile(h, 0.5), p90: percentile(h, 0.9) });

/** The contract's report from the database's aggregates; every day of the period is listed, quiet ones as 0. */
export function reportView(from: string, to: string, a: ReportAggregates): ReportView {
  const days = new Map(a.byDay.map((d) => [d.day, d]));
  const byDay: ReportView['by_day'] = [];
  for (let day = dayNumber(from); day <= dayNumber(to); day++) {
    const d = days.get(day);
    byDay.push({ date: dayDate(day), chats: d?.chats ?? 0, missed: d?.missed ?? 0 });
  }
  const sum = (key: 'chats' | 'missed' | 'positive' | 'negative') => a.byDay.reduce((total, d) => total + d[key], 0);
  const positive = sum('positive');
  const negative = sum('negative');
  return {
    from,
    to,
    chats: sum('chats'),
    missed: sum('missed'),
    first_response_seconds: durations(a.firstResponse),
    resolution_seconds: durations(a.resolution),
    rating: { positive, negative, csat: positive + negative === 0 ? null : positive / (positive + negative) },
    by_day: byDay,
    by_agent: a.byAgent.map((agent) => ({
      agent_id: agent.agentId,
      name: agent.name,
      chats: agent.chats,
      first_response_seconds: {
        median: percentile(
          a.agentFirstResponse.filter((h) => h.agentId === agent.agentId),
          0.5,
        ),
      },
      rating: { positive: agent.positive, negative: agent.negative },
    })),
  };
}

/** The report's days as CSV (RFC 4180): a header row, then one row per day, the date first. */
export function reportCsv(report: ReportView): string {
  const rows = [['date', 'chats', 'missed'], ...report.by_day.map((d) => [d.date, String(d.chats), String(d.missed)])];
  return rows.map((r) => r.join(',')).join('\r\n') + '\r\n';
}
