import type { VisitorPatch } from '../records.ts';
import { toClient, toMessage, type ClientRow, type MessageRow } from '../rows.ts';
import { patchColumns, type VisitorsRepo } from '../visitors.ts';
import type { PgDb } from './pg-db.ts';

export function createPgVisitorsRepo(db: PgDb): VisitorsRepo {
  return {
    async create(channelId, visitorId, tokenHash) {
      return db.tx(async (sql) => {
        // The counter's row stays locked until this transaction ends, so visitor numbers are handed out one
        // at a time across nodes, and a visitor that fails to insert gives its number back (no gaps).
        const number = await sql.value<number>(
          `INSERT INTO counters (name, value) VALUES ('visitor_number', 1)
           ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value`,
        );
        const now = Date.now();
        const row = await sql.one<ClientRow>(
          `INSERT INTO clients (channel_id, external_key, external_id_json, visitor_token_hash, visitor_number, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
          [channelId, visitorId, JSON.stringify(visitorId), tokenHash, number, now],
        );
        return toClient(row!);
      });
    },
    async findByToken(channelId, tokenHash) {
      const row = await db.one<ClientRow>('SELECT * FROM clients WHERE channel_id = $1 AND visitor_token_hash = $2', [
        channelId,
        tokenHash,
      ]);
      return row && toClient(row);
    },
    async findById(id) {
      const row = await db.one<ClientRow>('SELECT * FROM clients WHERE id = $1', [id]);
      return row && toClient(row);
    },
    async update(id, patch) {
      const entries = (Object.keys(patch) as (keyof VisitorPatch)[]).filter((k) => patch[k] !== undefined);
      if (entries.length === 0) return toClient((await db.one<ClientRow>('SELECT * FROM clients WHERE id = $1', [id]))!);
      const sets = entries.map((k, i) => `${patchColumns[k].column} = $${i + 3}`).join(', ');
      const values = entries.map((k) => (patchColumns[k].encode ? patchColumns[k].encode(patch[k]) : patch[k]));
      const row = await db.one<ClientRow>(`UPDATE clients SET ${sets}, updated_at = $2 WHERE id = $1 RETURNING *`, [
        id,
        Date.now(),
        ...values,
      ]);
      return toClient(row!);
    },
    async setPendingDepartment(clientId, departmentId) {
      const changed = await db.run('UPDATE clients SET pending_department_id = $1, updated_at = $2 WHERE id = $3', [
        departmentId,
        Date.now(),
        clientId,
      ]);
      return changed === 1;
    },
    async liveChat(clientId) {
      const row = await db.one<{ id: number; state: 'open' | 'bot'; assigned_agent_id: number | null }>(
        "SELECT id, state, assigned_agent_id FROM chats WHERE client_id = $1 AND state != 'closed'",
        [clientId],
      );
      return row ?? null;
    },
    async latestChatId(clientId) {
      return (await db.value<number>('SELECT id FROM chats WHERE client_id = $1 ORDER BY id DESC LIMIT 1', [clientId])) ?? null;
    },
    async messageByClientMsgId(clientId, clientMsgId) {
      const row = await db.one<MessageRow>(
        `SELECT * FROM messages WHERE chat_id IN (SELECT id FROM chats WHERE client_id = $1) AND author = 'client' AND external_id = $2
         ORDER BY id DESC LIMIT 1`,
        [clientId, clientMsgId],
      );
      return row && toMessage(row);
    },
  };
}
