import type { CallbackSettings } from '@svc/protocol';
import { CallInProgress, callSelect, liveCall, toCallRecord, type CallRow, type CallsRepo } from '../calls.ts';
import { insertPgDelivery } from './insert-delivery.ts';
import { isUniqueViolation, type PgDb, type PgSql } from './pg-db.ts';

const byId = `${callSelect} WHERE k.id = $1`;

/**
 * Takes `minutes` from the channel's callback balance. The row is locked first so two nodes ending calls of
 * one channel at once each take their minutes from the balance the other left. (what an
 * UPDATE takes) does not wait for the key-share locks of rows inserted with a foreign key to the channel.
 * The JSON is edited in JS rather than with jsonb_set, which would reorder its keys and compute in numeric
 * where SQLite's json_set computes in floating point.
 */
async function spend(sql: PgSql, channelId: number, minutes: number): Promise<void> {
  const json = await sql.value<string>('SELECT callback_json FROM channels WHERE id = $1 AND callback_json IS NOT NULL FOR NO KEY UPDATE', [
    channelId,
  ]);
  if (json === undefined) return;
  const callback = JSON.parse(json) as unknown;
  // Like json_set, only an object gets a balance; a missing one becomes null (NaN), as json_extract(...) - ? does.
  if (typeof callback !== 'object' || callback === null || Array.isArray(callback)) return;
  const settings = callback as Partial<CallbackSettings>;
  settings.balance = (settings.balance ?? NaN) - minutes;
  await sql.run('UPDATE channels SET callback_json = $1 WHERE id = $2', [JSON.stringify(callback), channelId]);
}

export function createPgCallsRepo(db: PgDb): CallsRepo {
  return {
    async create(call, webhook) {
      return db.tx(async (sql) => {
        const now = Date.now();
        let id: number;
        try {
          id = (await sql.value<number>(
            `INSERT INTO calls (channel_id, chat_id, client_id, type, phone, status, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, 'start', $6, $6) RETURNING id`,
            [call.channelId, call.chatId, call.clientId, call.type, call.phone, now],
          ))!;
        } catch (err) {
          if (isUniqueViolation(err)) throw new CallInProgress();
          throw err;
        }
        if (webhook) await insertPgDelivery(sql, { ...webhook(id), chatId: call.chatId, messageId: null }, now);
        return toCallRecord((await sql.one<CallRow>(byId, [id]))!);
      });
    },
    async transition(id, t, webhook) {
      return db.tx(async (sql) => {
        const now = Date.now();
        // Conditional on the status read before: of two nodes moving the call on, the second changes nothing.
        const changed = await sql.run(
          `UPDATE calls SET status = $3, updated_at = $4,
             reason = COALESCE($5, reason), record_url = COALESCE($6, record_url), agent_id = COALESCE($7, agent_id),
             connected_at = COALESCE($8, connected_at), ended_at = COALESCE($9, ended_at), duration = COALESCE($10, duration)
           WHERE id = $1 AND status = $2`,
          [
            id,
            t.from,
            t.status,
            now,
            t.reason ?? null,
            t.recordUrl ?? null,
            t.agentId ?? null,
            t.connectedAt ?? null,
            t.endedAt ?? null,
            t.duration ?? null,
          ],
        );
        if (changed === 0) return undefined;
        const call = toCallRecord((await sql.one<CallRow>(byId, [id]))!);
        if (t.minutes) await spend(sql, call.channelId, t.minutes);
        if (webhook) await insertPgDelivery(sql, { ...webhook, chatId: call.chatId, messageId: null }, now);
        return call;
      });
    },
    async findById(id) {
      const row = await db.one<CallRow>(byId, [id]);
      return row && toCallRecord(row);
    },
    async liveOfClient(clientId) {
      const row = await db.one<CallRow>(`${callSelect} WHERE k.client_id = $1 AND ${liveCall}`, [clientId]);
      return row && toCallRecord(row);
    },
    async listForAgent(agentId, state) {
      const rows = await db.all<CallRow>(
        `${callSelect} JOIN channels ch ON ch.id = k.channel_id
         WHERE ch.deleted_at IS NULL AND k.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = $1)
         AND (CASE WHEN ${liveCall} THEN 'active' ELSE 'ended' END) = $2
         ORDER BY k.id DESC LIMIT 200`,
        [agentId, state],
      );
      return rows.map(toCallRecord);
    },
  };
}
