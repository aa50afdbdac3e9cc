import type { AgentView, ChannelView, DepartmentView, ReportQuery } from '@svc/protocol';
import { useEffect, useState } from 'preact/hooks';
import { lastDays, periodPresets, todayIn } from './report-period.ts';

interface ReportFiltersProps {
  query: ReportQuery;
  onChange: (query: ReportQuery) => void;
  channels: ChannelView[];
  departments: DepartmentView[];
  agents: AgentView[];
}

const idOrUndefined = (value: string) => (value === '' ? undefined : Number(value));

/** Period, channel, department, agent and time zone of a report; each change asks for the report again. */
export function ReportFilters({ query, onChange, channels, departments, agents }: ReportFiltersProps) {
  // The zone is typed: it applies when the field is left or Enter is pressed, not at every key.
  const [zone, setZone] = useState(query.tz);
  useEffect(() => setZone(query.tz), [query.tz]);
  const preset = periodPresets.find((p) => {
    const period = lastDays(p.days, todayIn(query.tz));
    return period.from === query.from && period.to === query.to;
  });
  const set = (change: Partial<ReportQuery>) => onChange({ ...query, ...change });
  return (
    <form
      class="filters"
      aria-label="Report filters"
      onSubmit={(e) => {
        e.preventDefault();
        set({ tz: zone.trim() });
      }}
    >
      <div>
        <label for="report-period">Period</label>
        <select
          id="report-period"
          value={preset?.id ?? ''}
          onChange={(e) => {
            const chosen = periodPresets.find((p) => p.id === e.currentTarget.value);
            if (chosen) set(lastDays(chosen.days, todayIn(query.tz)));
          }}
        >
          {periodPresets.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="">Custom dates</option>
        </select>
      </div>
      <div>
        <label for="report-from">From</label>
        <input
          id="report-from"
          type="date"
          required
          value={query.from}
          max={query.to}
          onChange={(e) => set({ from: e.currentTarget.value })}
        />
      </div>
      <div>
        <label for="report-to">To</label>
        <input id="report-to" type="date" required value={query.to} min={query.from} onChange={(e) => set({ to: e.currentTarget.value })} />
      </div>
      <div>
        <label for="report-channel">Channel</label>
        <select
          id="report-channel"
          value={String(query.channel_id ?? '')}
          onChange={(e) => set({ channel_id: idOrUndefined(e.currentTarget.value) })}
        >
          <option value="">All channels</option>
          {channels.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="report-department">Department</label>
        <select
          id="report-department"
          value={String(query.department_id ?? '')}
          onChange={(e) => set({ department_id: idOrUndefined(e.currentTarget.value) })}
        >
          <option value="">All departments</option>
          {departments.map((d) => (
            <option key={d.id} value={String(d.id)}>
              {d.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="report-agent">Agent</label>
        <select
          id="report-agent"
          value={String(query.agent_id ?? '')}
          onChange={(e) => set({ agent_id: idOrUndefined(e.currentTarget.value) })}
        >
          <option value="">All agents</option>
          {agents.map((a) => (
            <option key={a.id} value={String(a.id)}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label for="report-zone">Time zone</label>
        <input
          id="report-zone"
          value={zone}
          placeholder="Europe/Oslo"
          onInput={(e) => setZone(e.currentTarget.value)}
          onChange={(e) => set({ tz: e.currentTarget.value.trim() })}
        />
      </div>
    </form>
  );
}
