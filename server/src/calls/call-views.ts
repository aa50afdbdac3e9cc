import type { CallView, VisitorCallView, WebhookCall } from '@svc/protocol';
import { iso } from '../conversations/views.ts';
import type { CallRecord } from '../store/calls.ts';

export function callView(c: CallRecord): CallView {
  return {
    id: c.id,
    channel_id: c.channelId,
    chat_id: c.chatId,
    visitor: c.visitorKey === null ? null : { id: c.visitorKey, number: c.visitorNumber, name: c.visitorName },
    type: c.type,
    phone: c.phone,
    status: c.status,
    reason: c.reason,
    record_url: c.recordUrl,
    agent_id: c.agentId,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    ended_at: c.endedAt === null ? null : iso(c.endedAt),
    duration: c.duration,
  };
}

export const visitorCallView = (c: CallRecord): VisitorCallView => ({ id: c.id, status: c.status, reason: c.reason });

/** spec 2.3 call: `reason` only on error, `record_url` only once the call ended and the recording is known. */
export function webhookCall(c: Pick<CallRecord, 'type' | 'phone' | 'status' | 'reason' | 'recordUrl'>): WebhookCall {
  return {
    type: c.type,
    phone: c.phone,
    status: c.status,
    ...(c.status === 'error' && c.reason !== null ? { reason: c.reason } : {}),
    ...(c.status === 'end' && c.recordUrl !== null ? { record_url: c.recordUrl } : {}),
  };
}
