import type { Statement } from 'better-sqlite3';
import { DELIVERY_COLUMNS, deliveryValues, type DeliveryToInsert } from '../deliveries.ts';
import type { Db } from './db.ts';

const insertStatements = new WeakMap<Db, Statement<unknown[]>>();

/** Enqueues a delivery inside the caller's transaction, so the row that caused it and the delivery
 * are written together or not at all. */
export function insertDelivery(db: Db, d: DeliveryToInsert, now: number): number {
  let insert = insertStatements.get(db);
  if (!insert) {
    insert = db.prepare(`INSERT INTO deliveries (${DELIVERY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    insertStatements.set(db, insert);
  }
  return Number(insert.run(...deliveryValues(d, now)).lastInsertRowid);
}
