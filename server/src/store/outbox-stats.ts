export interface OutboxStatsRepo {
  /** Deliveries waiting to be sent (pending), by kind. */
  pendingByKind(): Promise<{ kind: string; count: number }[]>;
}

export const pendingByKindSql = "SELECT kind, COUNT(*) AS count FROM deliveries WHERE state = 'pending' GROUP BY kind";
