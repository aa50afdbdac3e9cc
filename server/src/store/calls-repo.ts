import type { CallStatus, CallType } from '@svc/protocol';
import type { Db } from './db.ts';
import { insertDelivery } from './deliveries-repo.ts';
import type { NewDelivery } from './records.ts';
import type { WriteBatcher } from './write-batcher.ts';

export interface CallRecord {
  id: number;
  channelId: number;
  chatId: number | null;
  /** The widget visitor (client row) who asked for the callback. */
  clientId: number | null;
  visitorKey: string | null;
  visitorNumber: number | null;
  visitorName: string | null;
  type: CallType;
  phone: string;
  status: CallStatus;
  reason: string | null;
  recordUrl: string | null;
  agentId: number | null;
  createdAt: number;
  updatedAt: number;
  connectedAt: number | null;
  endedAt: number | null;
  /** Seconds. */
  duration: number | null;
}

export interface CallRow {
  id: number;
  channel_id: number;
  chat_id: number | null;
  client_id: number | null;
  visitor_key: string | null;
  visitor_number: number | null;
  visitor_name: string | null;
  type: CallType;
  phone: string;
  status: CallStatus;
  reason: string | null;
  record_url: string | null;
  agent_id: number | null;
  created_at: number;
  updated_at: number;
  connected_at: number | null;
  ended_at: number | null;
  duration: number | null;
}

export const toCallRecord = (r: CallRow): CallRecord => ({
  id: r.id,
  channelId: r.channel_id,
  chatId: r.chat_id,
  clientId: r.client_id,
  visitorKey: r.visitor_key,
  visitorNumber: r.visitor_number,
  visitorName: r.visitor_name,
  type: r.type,
  phone: r.phone,
  status: r.status,
  reason: r.reason,
  recordUrl: r.record_url,
  agentId: r.agent_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  connectedAt: r.connected_at,
  endedAt: r.ended_at,
  duration: r.duration,
});

export const callSelect = `SELECT k.*, c.external_key AS visitor_key, c.visitor_number, c.name AS visitor_name
  FROM calls k LEFT JOIN clients c ON c.id = k.client_id`;
export const liveCall = "k.status NOT IN ('end', 'error')";

export interface NewCall {
  channelId: number;
  chatId: number | null;
  clientId: number | null;
  type: CallType;
  phone: string;
}

/** A status change; `minutes` are taken from the channel's callback balance in the same transaction. */
export interface CallTransition {
  from: CallStatus;
  status: CallStatus;
  reason?: string | null;
  recordUrl?: string | null;
  agentId?: number | null;
  connectedAt?: number;
  endedAt?: number;
  duration?: number;
  minutes?: number;
}

/** The visitor already has a call in progress (the one_live_call_per_client index): two requests raced. */
export class CallInProgress extends Error {
  constructor() {
    super('A call is already in progress');
  }
}

/** Calls, each change written with its call_event webhook (when the channel wants it), in one transaction. */
export function createCallsRepo(db: Db, writes: WriteBatcher) {
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
    /** A new call in status start. Throws CallInProgress when the visitor already has a call in progress. */
    async create(call: NewCall, webhook: ((id: number) => NewDelivery) | null): Promise<CallRecord> {
      return writes.run(() => create(call, webhook));
    },
    /** Applies the change if the call is still in `t.from`; undefined when it moved on meanwhile. */
    async transition(id: number, t: CallTransition, webhook: NewDelivery | null): Promise<CallRecord | undefined> {
      return writes.run(() => transition(id, t, webhook));
    },
    async findById(id: number): Promise<CallRecord | undefined> {
      const row = q.byId.get(id);
      return row && toCallRecord(row);
    },
    /** The visitor's call in progress, if any. */
    async liveOfClient(clientId: number): Promise<CallRecord | undefined> {
      const row = q.liveOfClient.get(clientId);
      return row && toCallRecord(row);
    },
    /** The newest calls of the agent's channels, in progress (`active`) or over (`ended`). */
    async listForAgent(agentId: number, state: 'active' | 'ended'): Promise<CallRecord[]> {
      return q.forAgent.all(agentId, state).map(toCallRecord);
    },
  };
}
export type CallsRepo = ReturnType<typeof createCallsRepo>;
