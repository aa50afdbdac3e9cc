import type { PgDb } from './pg-db.ts';
import { planReport, type ReportsRepo } from '../reports.ts';

export function createPgReportsRepo(db: PgDb): ReportsRepo {
  return {
    async aggregate(filter, options) {
      const plan = planReport(filter, (n) => `$${n}::bigint`, 'chats ch', options?.exact);
      // REPEATABLE READ: the parts of a report see the same chats.
      const rows = await db.tx(async (sql) => {
        await sql.run('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        const all: unknown[][] = [];
        for (const s of plan.statements) all.push(await sql.all(s.sql, s.params));
        return all;
      });
      return plan.combine(rows);
    },
  };
}
