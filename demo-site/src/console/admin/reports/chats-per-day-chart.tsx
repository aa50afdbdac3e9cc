import type { ReportView } from '@svc/protocol';
import { labelledDays, layoutBars } from './chart-bars.ts';

const WIDTH = 720;
const HEIGHT = 220;
const LEFT = 40;
const BOTTOM = 24;
const TOP = 10;
const RIGHT = 8;
const plotWidth = WIDTH - LEFT - RIGHT;
const plotHeight = HEIGHT - TOP - BOTTOM;

const dayLabel = new Intl.DateTimeFormat('en', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const shortDate = (date: string) => dayLabel.format(new Date(`${date}T00:00:00Z`));

/** What the chart shows, in words, for those who do not see it. */
function summary(days: ReportView['by_day']): string {
  const total = days.reduce((sum, d) => sum + d.chats, 0);
  if (total === 0) return `Chats per day: no chats from ${days[0]?.date} to ${days.at(-1)?.date}.`;
  const busiest = days.reduce((best, d) => (d.chats > best.chats ? d : best));
  return `Chats per day from ${days[0]!.date} to ${days.at(-1)!.date}: ${total} in all, the most on ${busiest.date} (${busiest.chats}).`;
}

/**
 * Chats per day as bars in plain SVG, each day's missed chats darker at its foot. Sizes are SVG attributes and
 * colours come from reports.css: the console's policy allows no inline style.
 */
export function ChatsPerDayChart({ days }: { days: ReportView['by_day'] }) {
  const { bars, ticks, top } = layoutBars(days, plotWidth, plotHeight);
  const labelled = labelledDays(days.length);
  const yOf = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  return (
    <figure class="report-chart">
      <figcaption>
        Chats per day <span class="report-legend report-legend--answered">answered or open</span>{' '}
        <span class="report-legend report-legend--missed">missed</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary(days)}>
        {ticks.map((value) => (
          <g key={value} class="report-grid">
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={yOf(value)} y2={yOf(value)} />
            <text x={LEFT - 6} y={yOf(value) + 4} text-anchor="end">
              {value}
            </text>
          </g>
        ))}
        <g transform={`translate(${LEFT} ${TOP})`}>
          {bars.map((bar) => (
            <g key={bar.date} class="report-bar">
              <title>{`${bar.date}: ${bar.chats} chats, ${bar.missed} missed`}</title>
              <rect class="report-bar-all" x={bar.x} y={bar.y} width={bar.width} height={bar.height} />
              <rect class="report-bar-missed" x={bar.x} y={bar.missedY} width={bar.width} height={bar.missedHeight} />
            </g>
          ))}
        </g>
        {labelled.map((i) => (
          <text key={i} class="report-axis" x={LEFT + bars[i]!.x + bars[i]!.width / 2} y={HEIGHT - 6} text-anchor="middle">
            {shortDate(bars[i]!.date)}
          </text>
        ))}
      </svg>
    </figure>
  );
}
