import type { Db } from './db.ts';
import { planReport, type ReportsRepo } from '../reports.ts';

export function createReportsRepo(db: Db): ReportsRepo {
  return {
    async aggregate(filter, options) {
      // better-sqlite3 binds a JS number as a real: cast, so days and seconds divide as integers. Without
      // statistics the planner would take the channel's index and read every row of the table instead.
      const plan = planReport(filter, (n) => `CAST(@p${n} AS INTEGER)`, 'chats ch INDEXED BY chats_for_reports', options?.exact);
      const named = (params: unknown[]) => Object.fromEntries(params.map((value, i) => [`p${i + 1}`, value]));
      // One read transaction: the parts of a report see the same chats.
      const rows = db.transaction(() => plan.statements.map((s) => db.prepare(s.sql).all(named(s.params)))).deferred();
      return plan.combine(rows);
    },
  };
}
