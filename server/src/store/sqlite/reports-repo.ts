import type { Db } from './db.ts';
import { reportQueries, type ReportAggregates, type ReportsRepo } from '../reports.ts';

export function createReportsRepo(db: Db): ReportsRepo {
  return {
    async aggregate(filter) {
      // better-sqlite3 binds a JS number as a real: cast, so days and seconds divide as integers. Without
      // statistics the planner would take the channel's index and read every row of the table instead.
      const q = reportQueries(filter, (n) => `CAST(@p${n} AS INTEGER)`, 'chats ch INDEXED BY chats_for_reports');
      const named = (params: unknown[]) => Object.fromEntries(params.map((value, i) => [`p${i + 1}`, value]));
      const all = <T>(sql: string, params = q.filterParams) => db.prepare(sql).all(named(params)) as T[];
      // One read transaction: the parts of a report see the same chats.
      return db
        .transaction((): ReportAggregates => ({
          byDay: all(q.byDay, q.params),
          firstResponse: all(q.firstResponse),
          resolution: all(q.resolution),
          byAgent: all(q.byAgent),
          agentFirstResponse: all(q.agentFirstResponse),
        }))
        .deferred();
    },
  };
}
