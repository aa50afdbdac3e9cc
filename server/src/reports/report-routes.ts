import type Router from '@koa/router';
import { reportQuerySchema } from '@svc/protocol';
import { requireAdmin } from '../http/auth.ts';
import { invalidRequest, notFound } from '../http/errors.ts';
import { parseOr400 } from '../http/validate.ts';
import type { Store } from '../store/store.ts';
import { reportCsv, reportView } from './report-view.ts';
import { dayDate, dayNumber, isTimeZone, offsetsBetween, startOfDay } from './time-zone.ts';

interface ReportDeps {
  store: Store;
  adminTokenHash: string;
}

/** A report covers at most this many days: enough for year-on-year, small enough to answer at once. */
const MAX_DAYS = 731;

/** `GET /api/v1/reports` (contract: Reports, privacy and operations), as JSON or, asked for, CSV. */
export function registerReportRoutes(router: Router, deps: ReportDeps): void {
  const { store } = deps;
  router.get('/api/v1/reports', requireAdmin(deps.adminTokenHash, store), async (ctx) => {
    const query = parseOr400(reportQuerySchema, ctx.query, 'query');
    if (!isTimeZone(query.tz))
      throw invalidRequest(`Invalid query: tz: unknown time zone "${query.tz}"; use an IANA name such as Europe/Paris`);
    if (dayNumber(query.to) - dayNumber(query.from) >= MAX_DAYS)
      throw invalidRequest(`Invalid query: to: a report covers at most ${MAX_DAYS} days`);
    if (query.channel_id !== undefined && !(await store.channels.findById(query.channel_id))) throw notFound('No such channel');
    if (query.department_id !== undefined && !(await store.departments.findById(query.department_id))) throw notFound('No such department');
    if (query.agent_id !== undefined && !(await store.agents.findById(query.agent_id))) throw notFound('No such agent');

    const from = startOfDay(query.from, query.tz);
    const to = startOfDay(dayDate(dayNumber(query.to) + 1), query.tz);
    const aggregates = await store.reports.aggregate({
      from,
      to,
      channelId: query.channel_id,
      departmentId: query.department_id,
      agentId: query.agent_id,
      ...offsetsBetween(query.tz, from, to),
    });
    const report = reportView(query.from, query.to, aggregates);
    if (ctx.accepts('application/json', 'text/csv') === 'text/csv') {
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="report-${query.from}-${query.to}.csv"`);
      ctx.body = reportCsv(report);
      return;
    }
    ctx.body = report;
  });
}
