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

/** A delivery to write with the row that causes it, whose id its payload carries: the payload's JSON is split
 * where that id goes (the statement writes it between the two parts). */
export interface SourcedDelivery {
  /** The place in the batch of the row causing it (the caller's `source` CTE has it as `ord`). */
  ord: number;
  values: unknown[];
  payloadBefore: string;
  payloadAfter: string;
}

/**
 * `d`, built with `mark` where its source row's id goes, as a SourcedDelivery; undefined when the mark is not in
 * its payload's JSON exactly once, or is in its other text (its kind, ordering key, event id or url): then the
 * id cannot be put in its place by splitting around the mark.
 */
export function splitAtMark(d: DeliveryToInsert, now: number, mark: string, ord: number): SourcedDelivery | undefined {
  const values = deliveryValues(d, now);
  const parts = (values[PAYLOAD_INDEX] as string).split(mark);
  if (parts.length !== 2 || TEXT_INDEXES.some((i) => String(values[i]).includes(mark))) return undefined;
  return { ord, values, payloadBefore: parts[0]!, payloadAfter: parts[1]! };
}

/**
 * The deliveries of a batch as CTEs of a caller's single statement (its own transaction: no BEGIN, no COMMIT):
 * `locks` reads them and takes their ordering keys' locks, `insert` writes them; parameters are numbered from
 * `$from`. `source` is the caller's CTE of the rows causing them (its columns `id`, the row's id, and `ord`, its
 * place in the batch): each payload gets its source row's id, and with `messageIdFromSource` so does the
 * delivery's message_id. The locks are taken in hash order (two batches never wait on each other in a circle),
 * each key's once, and with `lockAfter` (a CTE with `ord`) only once that CTE's rows are written, so they are held
 * only for the rest of the statement and its commit. Every delivery id is drawn after all of them, in the batch's
 * order, as in `insertPgDelivery`; a CTE that reads `(SELECT count(*) FROM ordering)` runs after them too.
 */
export function pgDeliveryCtes(
  deliveries: SourcedDelivery[],
  options: { source: string; from: number; messageIdFromSource: boolean; lockAfter?: string },
): { locks: string; insert: string; params: unknown[] } {
  const column = (i: number) => deliveries.map((d) => d.values[i]);
  const arrays: [string, string, unknown[]][] = [
    ['ord', 'bigint', deliveries.map((d) => d.ord)],
    ...DELIVERY_COLUMN_NAMES.flatMap((name, i): [string, string, unknown[]][] =>
      i === PAYLOAD_INDEX
        ? [
            ['payload_before', 'text', deliveries.map((d) => d.payloadBefore)],
            ['payload_after', 'text', deliveries.map((d) => d.payloadAfter)],
          ]
        : [[name, COLUMN_TYPES[name]!, column(i)]],
    ),
  ];
  const p = (i: number) => `$${options.from + i}`;
  const lock = p(arrays.length);
  const columns = DELIVERY_COLUMN_NAMES.map((name) =>
    name === 'payload_json'
      ? `d.payload_before || s.id::text || d.payload_after`
      : name === 'message_id' && options.messageIdFromSource
        ? 's.id'
        : `d.${name}`,
  );
  return {
    locks: `delivery_input AS (
       SELECT * FROM unnest(${arrays.map(([, type], i) => `${p(i)}::${type}[]`).join(', ')}) AS d(${arrays.map(([name]) => name).join(', ')})
     ),
     ordering AS (
       SELECT pg_advisory_xact_lock(${lock}, k.h) FROM (
         SELECT DISTINCT hashtext(d.ordering_key) AS h FROM delivery_input d
           ${options.lockAfter ? `JOIN ${options.lockAfter} s ON s.ord = d.ord` : ''} ORDER BY h
       ) k
     )`,
    insert: `delivery AS (
       INSERT INTO deliveries (${DELIVERY_COLUMNS})
       SELECT ${columns.join(', ')}
         FROM delivery_input d JOIN ${options.source} s ON s.ord = d.ord CROSS JOIN (SELECT count(*) FROM ordering) locked
        ORDER BY d.ord
       RETURNING id
     )`,
    params: [...arrays.map(([, , values]) => values), ORDERING_LOCK],
  };
}

const DELIVERY_COLUMN_NAMES = DELIVERY_COLUMNS.split(', ');
/** Where `deliveryValues` puts the payload's JSON. */
const PAYLOAD_INDEX = DELIVERY_COLUMN_NAMES.indexOf('payload_json');
/** The other text columns, which must not hold a payload's mark. */
const TEXT_INDEXES = ['kind', 'ordering_key', 'event_id', 'url'].map((name) => DELIVERY_COLUMN_NAMES.indexOf(name));
const COLUMN_TYPES: Record<string, string> = {
  kind: 'text',
  channel_id: 'bigint',
  chat_id: 'bigint',
  message_id: 'bigint',
  ordering_key: 'text',
  event_id: 'text',
  url: 'text',
  max_attempts: 'integer',
  next_attempt_at: 'bigint',
  created_at: 'bigint',
  replay_of: 'bigint',
};
// A column added to DELIVERY_COLUMNS needs its type here: fail at start, not at the first batch.
for (const name of DELIVERY_COLUMN_NAMES)
  if (name !== 'payload_json' && !COLUMN_TYPES[name]) throw new Error(`insert-delivery.ts: no PostgreSQL type for deliveries.${name}`);
