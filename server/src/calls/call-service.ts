import {
  callPhoneSchema,
  finalCallStatuses,
  type CallbackAvailability,
  type CallRequestAnswer,
  type CallStatusUpdate,
  type CreateCallRequest,
  type WebhookPayload,
} from '@svc/protocol';
import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { invalidRequest, notFound } from '../http/errors.ts';
import { newEventId } from '../lib/random-id.ts';
import { CallInProgress, type CallRecord, type CallTransition } from '../store/calls.ts';
import type { AgentRecord, ChannelRecord, ClientRecord, NewDelivery } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { visitorFields, webhookAgent } from '../webhooks/webhook-payloads.ts';
import { WEBHOOK_DELIVERY, WEBHOOK_RETRIES } from '../webhooks/webhook-sender.ts';
import { callbackAvailability } from './callback-availability.ts';
import type { CallProvider } from './call-provider.ts';
import { transitionProblem } from './call-transitions.ts';
import { webhookCall, visitorCallView } from './call-views.ts';

type CallFacts = Pick<CallRecord, 'type' | 'phone' | 'status' | 'reason' | 'recordUrl' | 'chatId' | 'clientId'>;

/**
 * Calls: availability, the visitor's callback request, and every status change, each recorded with
 * its call_event webhook (spec 6.2) and announced as `call.updated`. A provider places the calls.
 */
export function createCallService(deps: { store: Store; events: DomainEvents; provider: CallProvider; log: Logger }) {
  const { store, events, provider, log } = deps;

  /** isCallbackEnabled for the visitor, or for the channel alone (no "call in progress" check). */
  async function availabilityFor(channel: ChannelRecord, clientId: number | null, now = new Date()): Promise<CallbackAvailability> {
    return callbackAvailability(channel.callback, {
      now,
      agentsOnline: (await store.channels.status(channel.id)) === 1,
      callInProgress: clientId !== null && (await store.calls.liveOfClient(clientId)) !== undefined,
    });
  }

  /** The call_event delivery for the call as it will be, or null when the channel does not want it. */
  async function callEvent(channel: ChannelRecord, call: CallFacts, agentId: number | null): Promise<((id: number) => NewDelivery) | null> {
    if (channel.kind !== 'widget' || !channel.webhookUrl || !channel.webhookEvents.includes('call_event')) return null;
    const eventId = newEventId();
    const client = call.clientId === null ? null : ((await store.visitors.findById(call.clientId)) ?? null);
    const agent = agentId === null ? undefined : await store.agents.findById(agentId);
    const payload: WebhookPayload = {
      ...(await visitorFields(store, channel, client, 'call_event', eventId)),
      event_name: 'call_event',
      ...(call.chatId !== null ? { chat_id: call.chatId } : {}),
      agent: agent ? webhookAgent(agent) : null,
      call: webhookCall(call),
    };
    const url = channel.webhookUrl;
    return (id) => ({
      kind: WEBHOOK_DELIVERY,
      channelId: channel.id,
      url,
      payload,
      maxAttempts: 1 + WEBHOOK_RETRIES,
      eventId,
      orderingKey: `webhook-call:${id}`,
    });
  }

  async function create(channel: ChannelRecord, call: Omit<CallFacts, 'status' | 'reason' | 'recordUrl'>): Promise<CallRecord> {
    const webhook = await callEvent(channel, { ...call, status: 'start', reason: null, recordUrl: null }, null);
    const created = await store.calls.create({ channelId: channel.id, ...call }, webhook);
    if (webhook) events.emit('delivery.enqueued');
    events.emit('call.updated', { call: created });
    return created;
  }

  async function changeStatus(call: CallRecord, update: CallStatusUpdate, agent: AgentRecord | null): Promise<CallRecord> {
    const problem = transitionProblem(call.status, update.status);
    if (problem) throw invalidRequest(`status: ${problem}`);
    const channel = await store.channels.findById(call.channelId);
    if (!channel) throw notFound('No such call');
    const now = Date.now();
    const t: CallTransition = { from: call.status, status: update.status };
    if (update.status === 'agent_connected' && agent) t.agentId = agent.id;
    if (update.status === 'client_connected') t.connectedAt = now;
    if (update.status === 'error') t.reason = update.reason ?? 'The call failed';
    if (update.record_url !== undefined) t.recordUrl = update.record_url;
    if (finalCallStatuses.includes(update.status)) {
      t.endedAt = now;
      // A call the visitor never picked up lasted nothing; a connected one at least a second.
      const measured = call.connectedAt === null ? 0 : Math.max(1, Math.ceil((now - call.connectedAt) / 1000));
      t.duration = update.duration ?? measured;
      t.minutes = Math.ceil(t.duration / 60);
    }
    const agentId = t.agentId ?? call.agentId;
    const webhook = await callEvent(
      channel,
      { ...call, status: update.status, reason: t.reason ?? null, recordUrl: t.recordUrl ?? call.recordUrl },
      agentId,
    );
    const changed = await store.calls.transition(call.id, t, webhook && webhook(call.id));
    if (!changed) throw invalidRequest('status: the call changed meanwhile; read it again');
    if (webhook) events.emit('delivery.enqueued');
    events.emit('call.updated', { call: changed });
    if (t.minutes) events.emit('callback.settings', { channelId: channel.id });
    return changed;
  }

  return {
    availabilityFor,
    changeStatus,

    /** spec 4.4 startCall and the callback form: re-checks everything the widget was told, then asks the provider. */
    async requestCallback(channel: ChannelRecord, visitor: ClientRecord, rawPhone: unknown): Promise<CallRequestAnswer> {
      const phone = callPhoneSchema.safeParse(rawPhone);
      if (!phone.success) {
        return { result: 'fail', reason: 'Invalid phone number', detail: 'Enter a phone number: an optional + and 7 to 15 digits' };
      }
      const availability = await availabilityFor(channel, visitor.id);
      if (availability.result === 'fail') return availability;
      let call: CallRecord;
      try {
        call = await create(channel, {
          type: 'callback',
          phone: phone.data,
          chatId: await store.visitors.latestChatId(visitor.id),
          clientId: visitor.id,
        });
      } catch (err) {
        // Two tabs asked at once: the one-live-call-per-visitor index let the first through.
        if (err instanceof CallInProgress) {
          return { result: 'fail', reason: 'Callback unavaiable', detail: 'A call is already in progress' };
        }
        throw err;
      }
      try {
        await provider.requestCallback(call);
      } catch (err) {
        log.warn({ err, call: call.id, provider: provider.name }, 'call provider refused a callback');
        call = await changeStatus(call, { status: 'error', reason: (err as Error).message || 'The call could not be placed' }, null);
      }
      return { result: 'ok', call: visitorCallView(call) };
    },

    /** An incoming or outgoing call a provider (or a test) reports. */
    async report(channel: ChannelRecord, request: CreateCallRequest): Promise<CallRecord> {
      if (channel.kind !== 'widget') throw invalidRequest('channel_id: calls belong to widget channels');
      return create(channel, { type: request.type, phone: request.phone, chatId: null, clientId: null });
    },
  };
}
export type CallService = ReturnType<typeof createCallService>;
