import type { ReportQuery, ReportView } from '@svc/protocol';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../../api/api-error.ts';
import { saveFile } from '../../lib/save-file.ts';
import type { AdminApi } from '../admin-api.ts';
import { FormError } from '../ui/form-error.tsx';
import { useLoad } from '../ui/use-load.ts';
import { AgentTable } from './agent-table.tsx';
import { ChatsPerDayChart } from './chats-per-day-chart.tsx';
import { ReportFilters } from './report-filters.tsx';
import { ReportNumbers } from './report-numbers.tsx';
import { lastDays, todayIn } from './report-period.ts';
import './reports.css';

function firstQuery(): ReportQuery {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  return { ...lastDays(30, todayIn(tz)), tz };
}

/** Reports (issue 21): the period's numbers, chats per day, the agents' table, and the days as CSV. */
export function ReportsScreen({ api }: { api: AdminApi }) {
  const lists = useLoad(() => Promise.all([api.listChannels(), api.listDepartments(), api.listAgents()]));
  const [query, setQuery] = useState<ReportQuery>(firstQuery);
  const [report, setReport] = useState<ReportView | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    api.report(query).then(
      (answer) => current && (setReport(answer), setError(null)),
      (err: unknown) => current && setError(errorText(err)),
    );
    // An answer to an older query that arrives late is dropped.
    return () => {
      current = false;
    };
  }, [query]);

  const download = async () => {
    try {
      saveFile(await api.reportCsv(query), `report-${query.from}-${query.to}.csv`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  const [channels, departments, agents] = lists.data ?? [[], [], []];
  return (
    <section class="admin-section reports" aria-labelledby="reports-title">
      <div class="section-head">
        <h3 id="reports-title">Reports</h3>
        <button type="button" class="button" onClick={() => void download()}>
          Download CSV
        </button>
      </div>
      <p class="help">
        Chats are counted on the day they began, in the time zone chosen. Missed: closed without an agent&apos;s answer. First response:
        from the customer&apos;s first message to the first agent message.
      </p>
      <ReportFilters query={query} onChange={setQuery} channels={channels} departments={departments} agents={agents} />
      <FormError message={error ?? lists.error} />
      {report && (
        <div>
          <ReportNumbers report={report} />
          <ChatsPerDayChart days={report.by_day} />
          <h4>Agents</h4>
          <AgentTable agents={report.by_agent} />
        </div>
      )}
    </section>
  );
}
