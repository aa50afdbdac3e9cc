import type { Db } from './db.ts';
import { insertDelivery } from './insert-delivery.ts';
import type { NewDelivery } from '../records.ts';
import type { WriteBatcher } from './write-batcher.ts';
import {
  CallInProgress,
  callSelect,
  liveCall,
  toCallRecord,
  type CallRecord,
  type CallRow,
  type CallTransition,
  type NewCall,
  type CallsRepo,
} from '../calls.ts';

/** Calls, each change written with its call_event webhook (when the channel wants it), in one transaction. */
export function createCallsRepo(db: Db, writes: WriteBatcher): CallsRepo {
  const q = {
    insert: db.prepare(
      `INSERT INTO calls (channel_id, chat_id, client_id, type, phone, status, created_at, updated_at)
       VALUES (@channelId, @chatId, @clientId, @type, @phone, 'start', @now, @now)`,
    ),
    byId: db.prepare<[number], CallRow>(`${callSelect} WHERE k.id = ?`),
    liveOfClient: db.prepare<[number], CallRow>(`${callSelect} WHERE k.client_id = ? AND ${liveCall}`),
    forAgent: db.prepare<[number, string], CallRow>(
      `${callSelect} JOIN channels ch ON ch.id = k.channel_id
       WHERE ch.deleted_at IS NULL AND k.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = ?)
       AND (CASE WHEN ${liveCall} THEN 'active' ELSE 'ended' END) = ?
       ORDER BY k.id DESC LIMIT 200`,
    ),
    transition: db.prepare(
      `UPDATE calls SET status = @status, updated_at = @now,
         reason = COALESCE(@reason, reason), record_url = COALESCE(@recordUrl, record_url), agent_id = COALESCE(@agentId, agent_id),
         connected_at = COALESCE(@connectedAt, connected_at), ended_at = COALESCE(@endedAt, ended_at), duration = COALESCE(@duration, duration)
       WHERE id = @id AND status = @from`,
    ),
    spend: db.prepare(
      `UPDATE channels SET callback_json = json_set(callback_json, '$.balance', json_extract(callback_json, '$.balance') - ?)
       WHERE id = ? AND callback_json IS NOT NULL`,
    ),
  };

  const create = db.transaction((call: NewCall, webhook: ((id: number) => NewDelivery) | null) => {
    const now = Date.now();
    let id: number;
    try {
      id = Number(q.insert.run({ ...call, now }).lastInsertRowid);
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new CallInProgress();
      throw err;
    }
    if (webhook) insertDelivery(db, { ...webhook(id), chatId: call.chatId, messageId: null }, now);
    return toCallRecord(q.byId.get(id)!);
  });

  const transition = db.transaction((id: number, t: CallTransition, webhook: NewDelivery | null) => {
    const now = Date.now();
    const changed = q.transition.run({
      id,
      now,
      from: t.from,
      status: t.status,
      reason: t.reason ?? null,
      recordUrl: t.recordUrl ?? null,
      agentId: t.agentId ?? null,
      connectedAt: t.connectedAt ?? null,
      endedAt: t.endedAt ?? null,
      duration: t.duration ?? null,
    }).changes;
    // Someone else changed the call first: nothing is written.
    if (changed === 0) return undefined;
    const call = toCallRecord(q.byId.get(id)!);
    if (t.minutes) q.spend.run(t.minutes, call.channelId);
    if (webhook) insertDelivery(db, { ...webhook, chatId: call.chatId, messageId: null }, now);
    return call;
  });

  return {
    async create(call: NewCall, webhook: ((id: number) => NewDelivery) | null): Promise<CallRecord> {
      return writes.run(() => create(call, webhook));
    },
    async transition(id: number, t: CallTransition, webhook: NewDelivery | null): Promise<CallRecord | undefined> {
      return writes.run(() => transition(id, t, webhook));
    },
    async findById(id: number): Promise<CallRecord | undefined> {
      const row = q.byId.get(id);
      return row && toCallRecord(row);
    },
    async liveOfClient(clientId: number): Promise<CallRecord | undefined> {
      const row = q.liveOfClient.get(clientId);
      return row && toCallRecord(row);
    },
    async listForAgent(agentId: number, state: 'active' | 'ended'): Promise<CallRecord[]> {
      return q.forAgent.all(agentId, state).map(toCallRecord);
    },
  };
}
