import type { PgDb } from './pg-db.ts';
import { reportQueries, type ReportsRepo } from '../reports.ts';

export function createPgReportsRepo(db: PgDb): ReportsRepo {
  return {
    async aggregate(filter) {
      const q = reportQueries(filter, (n) => `$${n}::bigint`);
      // REPEATABLE READ: the parts of a report see the same chats.
      return db.tx(async (sql) => {
        await sql.run('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        return {
          byDay: await sql.all(q.byDay, q.params),
          firstResponse: await sql.all(q.firstResponse, q.filterParams),
          resolution: await sql.all(q.resolution, q.filterParams),
          byAgent: await sql.all(q.byAgent, q.filterParams),
          agentFirstResponse: await sql.all(q.agentFirstResponse, q.filterParams),
        };
      });
    },
  };
}
