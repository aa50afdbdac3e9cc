import { z } from 'zod';

/** A customer's data and its erasure (contract: "Reports, privacy and operations"). */

/** A stored row as the export shows it: every column but the customer's secrets, JSON columns as JSON. */
const storedRow = z.record(z.string(), z.unknown());

/** `GET /api/v1/channels/:id/clients/:client_id/export` */
export const clientExportSchema = z.object({
  exported_at: z.string(),
  client: storedRow,
  chats: z.array(z.looseObject({ messages: z.array(storedRow) })),
  calls: z.array(storedRow),
  offline_messages: z.array(storedRow),
});
export type ClientExport = z.infer<typeof clientExportSchema>;

/**
 * `DELETE /api/v1/channels/:id/clients/:client_id` answers `202` with this instead of `204` when the customer is
 * erased from the database and the files, but SQLite's files still hold the erased text: another process reading the
 * database (a backup) keeps the write-ahead log from being emptied. The server empties it as soon as it can.
 */
export const erasurePendingSchema = z.object({
  wal_pending: z.literal(true),
  message: z.string(),
});
export type ErasurePending = z.infer<typeof erasurePendingSchema>;

/** How many rows of each kind an erasure removed (the audit log keeps these, never the content). */
export const erasureCountsSchema = z.object({
  clients: z.number().int(),
  chats: z.number().int(),
  messages: z.number().int(),
  calls: z.number().int(),
  offline_messages: z.number().int(),
  deliveries: z.number().int(),
  files: z.number().int(),
});
export type ErasureCounts = z.infer<typeof erasureCountsSchema>;

/** `GET /api/v1/erasures`: the newest 500. */
export const erasureListSchema = z.object({
  erasures: z.array(
    z.object({
      id: z.number().int(),
      at: z.string(),
      reason: z.enum(['request', 'retention']),
      /** Who asked: `agent <id> (<email>)`, `admin token`, or the retention sweep. */
      actor: z.string(),
      channel_id: z.number().int(),
      client_id: z.string().nullable(),
      counts: erasureCountsSchema,
      /**
       * `pending` while the database's files may still hold the erased text (SQLite: another process reading the
       * database, such as a backup, keeps the write-ahead log from being emptied; the erasure answered `202`);
       * `complete` once they no longer do. PostgreSQL's erasures are complete at once: rows deleted and vacuumed (its
       * table files can hold their bytes until reused; docs/operators.md).
       */
      state: z.enum(['complete', 'pending']),
      /** When the erasure became complete; null while it is pending. */
      completed_at: z.string().nullable(),
    }),
  ),
});
export type ErasureList = z.infer<typeof erasureListSchema>;
