import type { Db } from './db.ts';
import { nextId } from './retired-ids.ts';
import type { ClientRecord, MessageRecord, VisitorPatch } from '../records.ts';
import { toClient, toMessage, type ClientRow, type MessageRow } from '../rows.ts';
import type { WriteBatcher } from './write-batcher.ts';
import { patchColumns, type VisitorsRepo } from '../visitors.ts';

/** Widget visitors: clients of widget channels, known by a token their browser keeps. */
export function createVisitorsRepo(db: Db, writes: WriteBatcher): VisitorsRepo {
  const q = {
    nextNumber: db
      .prepare<[], number>(
        "INSERT INTO counters (name, value) VALUES ('visitor_number', 1) ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
      )
      .pluck(),
    insert: db.prepare(
      `INSERT INTO clients (id, channel_id, external_key, external_id_json, visitor_token_hash, visitor_number, created_at, updated_at)
       VALUES (${nextId('clients')}, @channelId, @key, @idJson, @tokenHash, @number, @now, @now)`,
    ),
    byId: db.prepare<[number], ClientRow>('SELECT * FROM clients WHERE id = ?'),
    byToken: db.prepare<[number, string], ClientRow>('SELECT * FROM clients WHERE channel_id = ? AND visitor_token_hash = ?'),
    liveChat: db.prepare<[number], { id: number; state: 'open' | 'bot'; assigned_agent_id: number | null }>(
      "SELECT id, state, assigned_agent_id FROM chats WHERE client_id = ? AND state != 'closed'",
    ),
    setPendingDepartment: db.prepare('UPDATE clients SET pending_department_id = ?, updated_at = ? WHERE id = ?'),
    latestChat: db.prepare<[number], { id: number }>('SELECT id FROM chats WHERE client_id = ? ORDER BY id DESC LIMIT 1'),
    messageByExternalId: db.prepare<[number, string], MessageRow>(
      "SELECT * FROM messages WHERE chat_id IN (SELECT id FROM chats WHERE client_id = ?) AND author = 'client' AND external_id = ? ORDER BY id DESC LIMIT 1",
    ),
  };

  const create = db.transaction((channelId: number, visitorId: string, tokenHash: string) => {
    const number = q.nextNumber.get()!;
    const now = Date.now();
    const id = Number(
      q.insert.run({ channelId, key: visitorId, idJson: JSON.stringify(visitorId), tokenHash, number, now }).lastInsertRowid,
    );
    return toClient(q.byId.get(id)!);
  });

  return {
    async create(channelId: number, visitorId: string, tokenHash: string): Promise<ClientRecord> {
      return writes.run(() => create(channelId, visitorId, tokenHash));
    },
    async findByToken(channelId: number, tokenHash: string): Promise<ClientRecord | undefined> {
      const row = q.byToken.get(channelId, tokenHash);
      return row && toClient(row);
    },
    async findById(id: number): Promise<ClientRecord | undefined> {
      const row = q.byId.get(id);
      return row && toClient(row);
    },
    async update(id: number, patch: VisitorPatch): Promise<ClientRecord> {
      const entries = (Object.keys(patch) as (keyof VisitorPatch)[]).filter((k) => patch[k] !== undefined);
      if (entries.length > 0) {
        const sets = entries.map((k) => `${patchColumns[k].column} = @${k}`).join(', ');
        const values = Object.fromEntries(entries.map((k) => [k, patchColumns[k].encode ? patchColumns[k].encode(patch[k]) : patch[k]]));
        await writes.run(() =>
          db.prepare(`UPDATE clients SET ${sets}, updated_at = @now WHERE id = @id`).run({ ...values, now: Date.now(), id }),
        );
      }
      return toClient(q.byId.get(id)!);
    },
    async setPendingDepartment(clientId: number, departmentId: number | null): Promise<boolean> {
      return writes.run(() => q.setPendingDepartment.run(departmentId, Date.now(), clientId).changes === 1);
    },
    async liveChat(clientId: number) {
      return q.liveChat.get(clientId) ?? null;
    },
    async latestChatId(clientId: number): Promise<number | null> {
      return q.latestChat.get(clientId)?.id ?? null;
    },
    async messageByClientMsgId(clientId: number, clientMsgId: string): Promise<MessageRecord | undefined> {
      const row = q.messageByExternalId.get(clientId, clientMsgId);
      return row && toMessage(row);
    },
  };
}
