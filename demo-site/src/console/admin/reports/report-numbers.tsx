import type { ReportView } from '@svc/protocol';
import { formatSeconds, formatShare } from './report-format.ts';

/** The period's numbers, as the contract defines them (docs/admin-api.md, Reports). */
export function ReportNumbers({ report }: { report: ReportView }) {
  const { rating } = report;
  const missedShare = report.chats === 0 ? null : report.missed / report.chats;
  return (
    <dl class="report-numbers">
      <div>
        <dt>Chats</dt>
        <dd>{report.chats}</dd>
      </div>
      <div>
        <dt>Missed</dt>
        <dd>
          {report.missed} <span class="muted">({formatShare(missedShare)})</span>
        </dd>
      </div>
      <div>
        <dt>First response</dt>
        <dd>
          {formatSeconds(report.first_response_seconds.median)} <span class="muted">median</span>
          <br />
          {formatSeconds(report.first_response_seconds.p90)} <span class="muted">p90</span>
        </dd>
      </div>
      <div>
        <dt>Resolution</dt>
        <dd>
          {formatSeconds(report.resolution_seconds.median)} <span class="muted">median</span>
          <br />
          {formatSeconds(report.resolution_seconds.p90)} <span class="muted">p90</span>
        </dd>
      </div>
      <div>
        <dt>CSAT</dt>
        <dd>
          {formatShare(rating.csat)}{' '}
          <span class="muted">
            ({rating.positive} positive, {rating.negative} negative)
          </span>
        </dd>
      </div>
    </dl>
  );
}
