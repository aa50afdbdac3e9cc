import type { PgDb } from './pg-db.ts';
import { pendingByKindSql, type OutboxStatsRepo } from '../outbox-stats.ts';

export function createPgOutboxStatsRepo(db: PgDb): OutboxStatsRepo {
  return {
    pendingByKind: () => db.all<{ kind: string; count: number }>(pendingByKindSql),
  };
}
