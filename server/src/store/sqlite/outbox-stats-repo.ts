import type { Db } from './db.ts';
import { pendingByKindSql, type OutboxStatsRepo } from '../outbox-stats.ts';

export function createOutboxStatsRepo(db: Db): OutboxStatsRepo {
  const pending = db.prepare<[], { kind: string; count: number }>(pendingByKindSql);
  return {
    async pendingByKind() {
      return pending.all();
    },
  };
}
