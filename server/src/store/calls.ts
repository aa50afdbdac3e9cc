import type { CallStatus, CallType } from '@svc/protocol';
import type { NewDelivery } from './records.ts';

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

export interface CallsRepo {
  /** A new call in status start. Throws CallInProgress when the visitor already has a call in progress. */
  create(call: NewCall, webhook: ((id: number) => NewDelivery) | null): Promise<CallRecord>;
  /** Applies the change if the call is still in `t.from`; undefined when it moved on meanwhile. */
  transition(id: number, t: CallTransition, webhook: NewDelivery | null): Promise<CallRecord | undefined>;
  findById(id: number): Promise<CallRecord | undefined>;
  /** The visitor's call in progress, if any. */
  liveOfClient(clientId: number): Promise<CallRecord | undefined>;
  /** The newest calls of the agent's channels, in progress (`active`) or over (`ended`). */
  listForAgent(agentId: number, state: 'active' | 'ended'): Promise<CallRecord[]>;
}
