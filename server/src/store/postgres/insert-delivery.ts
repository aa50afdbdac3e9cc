import { DELIVERY_COLUMNS, deliveryValues, orderingKeyOf, type DeliveryToInsert } from '../deliveries.ts';
import type { PgSql } from './pg-db.ts';

/** The advisory-lock namespace of the outbox's ordering keys: every path that inserts a delivery takes this one. */
export const ORDERING_LOCK = 0x5c_de_02;

/**
 * Enqueues a delivery inside the caller's transaction, so the row that caused it and the delivery are
 * written together or not at all (PostgreSQL twin of `insertDelivery` in ../sqlite/insert-delivery.ts).
 *
 * Ids are handed out at insert, not at commit: two transactions writing rows of one ordering key could commit
 * the later id first, and a worker would send it before the earlier row exists. A transaction-scoped lock per
 * ordering key (a hash: a collision only waits) makes them take ids in commit order.
 */
export async function insertPgDelivery(
  /** A transaction's connection: the lock lasts until its commit. */
  sql: PgSql,
  d: DeliveryToInsert,
  now: number,
): Promise<number> {
  // One round trip: the row's id is drawn after the lock's CTE has produced its row, so after the lock is held.
  const id = await sql.value<number>(
    `WITH ordering AS (SELECT pg_advisory_xact_lock($13, hashtext($14)))
     INSERT INTO deliveries (${DELIVERY_COLUMNS})
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM ordering RETURNING id`,
    [...deliveryValues(d, now), ORDERING_LOCK, orderingKeyOf(d)],
  );
  return id!;
}

/**
 * The same insert as the last CTEs of a caller's single statement (its own transaction: no BEGIN, no COMMIT),
 * after the CTE `source` that writes the one row causing the delivery; parameters are numbered from `$from`.
 * The ordering lock is taken once that row is written, so it is held only for the rest of the statement and
 * its commit, and the delivery's id is drawn after it, as in `insertPgDelivery`. With `sourceIdMark`, that
 * text (occurring once in the payload's JSON) is replaced by the source row's id.
 */
export function pgDeliveryCtes(
  d: DeliveryToInsert,
  now: number,
  options: { source: string; from: number; sourceIdMark?: string },
): { sql: string; params: unknown[] } {
  const values = deliveryValues(d, now);
  const p = (i: number) => `$${options.from + i}`;
  const columns = values.map((_, i) =>
    i === PAYLOAD_INDEX && options.sourceIdMark ? `replace(${p(i)}, ${p(values.length + 2)}, ordering.source_id::text)` : p(i),
  );
  return {
    sql: `ordering AS (SELECT pg_advisory_xact_lock(${p(values.length)}, hashtext(${p(values.length + 1)})), ${options.source}.id AS source_id FROM ${options.source}),
     delivery AS (INSERT INTO deliveries (${DELIVERY_COLUMNS}) SELECT ${columns.join(', ')} FROM ordering RETURNING id)`,
    params: [...values, ORDERING_LOCK, orderingKeyOf(d), ...(options.sourceIdMark ? [options.sourceIdMark] : [])],
  };
}

/** Where `deliveryValues` puts the payload's JSON. */
const PAYLOAD_INDEX = DELIVERY_COLUMNS.split(', ').indexOf('payload_json');
