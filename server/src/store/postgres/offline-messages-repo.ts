import {
  offlineMessageSelect,
  toOfflineMessage,
  type OfflineMessageRecord,
  type OfflineMessageRow,
  type OfflineMessagesRepo,
} from '../offline-messages.ts';
import type { NewDelivery } from '../records.ts';
import { randomId } from '../../lib/random-id.ts';
import { pgDeliveryCtes, splitAtMark, type SourcedDelivery } from './insert-delivery.ts';
import { retryingStatement, type PgDb } from './pg-db.ts';
import { createStatementBatcher } from './statement-batch.ts';

const messageColumns = ['channel_id', 'client_id', 'name', 'email', 'phone', 'description', 'message'] as const;
const messageTypes = ['bigint', 'bigint', 'text', 'text', 'text', 'text', 'text'];

/**
 * Offline messages, with their offline_message webhooks, many in one statement: its own transaction, so one
 * round trip and one commit for all, and each ordering key's lock (the channel's) taken once for all of its
 * webhooks. The ids are drawn after those locks, so a channel's messages get ids in the order their webhooks are
 * sent (commit order), and before the rows are written, in the batch's order, so each row is known by its place.
 * The sequence is looked up once per statement (a subquery): looked up per row, it cost each row 2-7 us more.
 */
const batchSql = (deliveries: { locks: string; insert: string }) => `
  WITH input AS (
    SELECT * FROM unnest(${messageTypes.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
      WITH ORDINALITY AS i(${messageColumns.join(', ')}, ord)
  ),
  ${deliveries.locks},
  ids AS (
    SELECT nextval((SELECT pg_get_serial_sequence('offline_messages', 'id'))::regclass) AS id, i.*
      FROM (SELECT * FROM input ORDER BY ord) i CROSS JOIN (SELECT count(*) FROM ordering) locked
  ),
  o AS (
    INSERT INTO offline_messages (id, ${messageColumns.join(', ')}, created_at)
    SELECT id, ${messageColumns.join(', ')}, $${messageColumns.length + 1}::bigint FROM ids ORDER BY ord
    RETURNING *
  ),
  source AS (SELECT o.id, ids.ord FROM o JOIN ids ON ids.id = o.id),
  ${deliveries.insert}
  SELECT o.*, c.external_key AS visitor_key, source.ord AS batch_ord
    FROM o JOIN source ON source.id = o.id LEFT JOIN clients c ON c.id = o.client_id`;

type NewOfflineMessage = Parameters<OfflineMessagesRepo['add']>[0];
interface Pending {
  columns: unknown[];
  delivery?: Omit<SourcedDelivery, 'ord'>;
}

/** The messages of `batch` in one statement, with their webhooks; the rows stored, by the item's index. */
async function addAll(db: PgDb, batch: Pending[]) {
  const now = Date.now();
  const deliveries = batch.flatMap((item, i) => (item.delivery ? [{ ...item.delivery, ord: i + 1 }] : []));
  const ctes = pgDeliveryCtes(deliveries, { source: 'source', from: messageColumns.length + 2, messageIdFromSource: false });
  const params = [...messageColumns.map((_, c) => batch.map((item) => item.columns[c])), now, ...ctes.params];
  const rows = await retryingStatement(() => db.all<OfflineMessageRow & { batch_ord: number }>(batchSql(ctes), params));
  return new Map(rows.map((row) => [row.batch_ord - 1, toOfflineMessage(row)]));
}

/** The offline messages arriving together share one statement (group commit); see statement-batch.ts. */
export function createOfflineMessageBatcher(db: PgDb) {
  // No key: several messages of one channel share a statement, their webhooks in the batch's order.
  return createStatementBatcher<Pending, OfflineMessageRecord>({
    write: (batch) => addAll(db, batch),
    // A statement PostgreSQL refused changed nothing: the message alone again, so its error is its own.
    alone: async (item) => (await addAll(db, [item])).get(0)!,
    key: (item) => item,
  });
}

/** The message as the batch statement's columns, with its webhook built around a random mark (no party's text
 * can hold it) where the message's id goes: the statement writes the id there as it writes the row. */
function prepare(m: NewOfflineMessage, webhook: ((offlineMessageId: string) => NewDelivery) | null): Pending {
  const columns = [m.channelId, m.clientId, m.name, m.email, m.phone, m.description, m.message];
  if (!webhook) return { columns };
  const mark = `offline-message-id-${randomId(16)}`;
  const delivery = splitAtMark({ ...webhook(mark), chatId: null, messageId: null }, Date.now(), mark, 0);
  if (!delivery) throw new Error('An offline_message webhook must carry the message id once, in its payload only');
  return { columns, delivery };
}

export function createPgOfflineMessagesRepo(db: PgDb, batcher = createOfflineMessageBatcher(db)): OfflineMessagesRepo {
  return {
    // Accepted means it will be sent: the message and its offline_message webhook are committed together.
    async add(m, webhook) {
      const pending = prepare(m, webhook);
      return batcher.add(pending);
    },
    async listForAgent(agentId, limit = 200) {
      const rows = await db.all<OfflineMessageRow>(
        `${offlineMessageSelect} JOIN channels ch ON ch.id = o.channel_id
         WHERE ch.deleted_at IS NULL AND o.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = $1)
         ORDER BY o.id DESC LIMIT $2`,
        [agentId, limit],
      );
      return rows.map(toOfflineMessage);
    },
  };
}
