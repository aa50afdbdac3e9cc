import type { PgDb, PgSql } from './pg-db.ts';
import {
  addCounts,
  byChannel,
  countChatsSql,
  eraseChatsSql,
  mediaOfChatsSql,
  noneErased,
  toErasure,
  type ErasureCounts,
  type ErasedExpired,
  type ErasedClient,
  type PrivacyRepo,
} from '../privacy.ts';

type Row = Record<string, unknown>;
type Counted = { messages: number; deliveries: number; calls: number };

const ofClient = 'SELECT id FROM chats WHERE client_id = $1';
const ofList = 'SELECT unnest($1::bigint[])';
// Complete when written: the deleted rows leave every query at once, and the VACUUM after the transaction reclaims
// their pages (what else holds old bytes, WAL segments and backups, is the operator's: docs/operators.md).
const audit =
  'INSERT INTO erasures (channel_id, client_key, reason, actor, counts_json, created_at, completed_at) VALUES ($1, $2, $3, $4, $5, $6, $6)';

/**
 * Rows deleted here leave the queries at once; their bytes stay in the table files until VACUUM reclaims the
 * pages and later writes reuse them, so each erasure runs a plain VACUUM of the tables it touched (outside the
 * transaction, as VACUUM must). docs/operators.md says what else holds old bytes (WAL segments, backups).
 */
export function createPgPrivacyRepo(db: PgDb): PrivacyRepo {
  const vacuum = () =>
    db.run('VACUUM messages, chats, chat_activity, clients, deliveries, delivery_attempts, calls, offline_messages, bot_events');
  const eraseChats = async (sql: PgSql, chats: string, param: unknown): Promise<Counted & { media: string[] }> => {
    const counted = (await sql.one<Counted>(countChatsSql(chats), [param]))!;
    const media = (await sql.all<{ media_json: string }>(mediaOfChatsSql(chats), [param])).map((r) => r.media_json);
    for (const statement of eraseChatsSql(chats)) await sql.run(statement, [param]);
    return { ...counted, media };
  };

  return {
    async exportClient(channelId, clientKey) {
      const client = await db.one<Row>('SELECT * FROM clients WHERE channel_id = $1 AND external_key = $2', [channelId, clientKey]);
      if (!client) return undefined;
      const clientId = client.id as number;
      return {
        client,
        chats: await db.all<Row>(
          // a chat's last message and activity are kept apart (chat-activity.ts), and stored about the customer as well
          'SELECT ch.*, a.last_message_id, a.last_activity_at FROM chats ch LEFT JOIN chat_activity a ON a.id = ch.id WHERE ch.client_id = $1 ORDER BY ch.id',
          [clientId],
        ),
        messages: await db.all<Row>(`SELECT * FROM messages WHERE chat_id IN (${ofClient}) ORDER BY id`, [clientId]),
        calls: await db.all<Row>(`SELECT * FROM calls WHERE client_id = $1 OR chat_id IN (${ofClient}) ORDER BY id`, [clientId]),
        offlineMessages: await db.all<Row>('SELECT * FROM offline_messages WHERE client_id = $1 ORDER BY id', [clientId]),
      };
    },

    async eraseClient(channelId, clientKey, actor) {
      const erased = await db.tx(async (sql): Promise<ErasedClient | undefined> => {
        const client = await sql.one<{ id: number }>('SELECT id FROM clients WHERE channel_id = $1 AND external_key = $2 FOR UPDATE', [
          channelId,
          clientKey,
        ]);
        if (!client) return undefined;
        const clientId = client.id;
        const chatIds = (await sql.all<{ id: number }>('SELECT id FROM chats WHERE client_id = $1 ORDER BY id', [clientId])).map((c) =>
          Number(c.id),
        );
        const { media, ...related } = await eraseChats(sql, ofClient, clientId);
        const counts: ErasureCounts = { ...noneErased(), clients: 1, chats: chatIds.length, ...related };
        counts.calls += await sql.run('DELETE FROM calls WHERE client_id = $1', [clientId]);
        counts.offline_messages = await sql.run('DELETE FROM offline_messages WHERE client_id = $1', [clientId]);
        await sql.run('DELETE FROM clients WHERE id = $1', [clientId]);
        await sql.run(audit, [channelId, clientKey, 'request', actor, JSON.stringify(counts), Date.now()]);
        return { counts, media, clientId, chatIds };
      });
      if (erased) await vacuum();
      return erased;
    },

    async eraseExpiredChats(now, limit) {
      const erased = await db.tx(async (sql): Promise<ErasedExpired> => {
        const expired = await sql.all<{ id: number; channel_id: number }>(
          `SELECT ch.id, ch.channel_id FROM channels c JOIN chats ch ON ch.channel_id = c.id AND ch.state = 'closed' AND ch.closed_at < $1 - c.retention_ms
           WHERE c.retention_ms IS NOT NULL LIMIT $2 FOR UPDATE OF ch SKIP LOCKED`,
          [now, limit],
        );
        const total = noneErased();
        const media: string[] = [];
        const chats: ErasedExpired['chats'] = [];
        for (const [channelId, ids] of byChannel(expired)) {
          chats.push({ channelId, chatIds: ids });
          const { media: files, ...related } = await eraseChats(sql, ofList, ids);
          const counts = { ...noneErased(), chats: ids.length, ...related };
          media.push(...files);
          await sql.run(audit, [channelId, null, 'retention', 'retention', JSON.stringify(counts), now]);
          addCounts(total, counts);
        }
        return { counts: total, media, chats };
      });
      if (erased.counts.chats > 0) await vacuum();
      return erased;
    },

    async listErasures(limit) {
      return (await db.all<Parameters<typeof toErasure>[0]>('SELECT * FROM erasures ORDER BY id DESC LIMIT $1', [limit])).map(toErasure);
    },
  };
}
