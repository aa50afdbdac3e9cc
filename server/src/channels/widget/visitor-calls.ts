import { finalCallStatuses, type CallRequestAnswer } from '@svc/protocol';
import type { Logger } from 'pino';
import type { CallService } from '../../calls/call-service.ts';
import { visitorCallView } from '../../calls/call-views.ts';
import type { DomainEvents } from '../../conversations/domain-events.ts';
import type { RateLimits } from '../../http/rate-limits.ts';
import type { Store } from '../../store/store.ts';
import { channelVisitorsRoom, visitorRoom, type VisitorNamespace } from './widget-gateway.ts';

/** The schedule is read per minute: visitors hear the opening hours begin and end without reloading. */
const CLOCK_MS = 60_000;

/**
 * Callbacks over the visitor socket (spec 4.4 startCall, 6.3 svc_onCallStart / svc_onCallEnd): the widget asks
 * with `call:request`, hears each status of its call (`call`) and every change of what isCallbackEnabled
 * answers (`callback`).
 */
export function attachVisitorCalls(
  nsp: VisitorNamespace,
  deps: { store: Store; events: DomainEvents; calls: CallService; rateLimits: RateLimits; log: Logger },
) {
  const { store, events, calls, log } = deps;
  /** The availability each socket last heard, so only changes are sent. */
  const heard = new Map<string, string>();

  nsp.on('connection', (socket) => {
    socket.on('disconnect', () => heard.delete(socket.id));
    socket.on('call:request', async (raw: unknown, ack?: (answer: CallRequestAnswer) => void) => {
      const reply = typeof ack === 'function' ? ack : () => undefined;
      try {
        const { channel, visitor } = socket.data;
        if (!(await deps.rateLimits.visitorUpdates.take(`visitor:${visitor.id}`))) {
          return reply({ result: 'fail', reason: 'Callback unavaiable', detail: 'Too many requests; try again in a minute' });
        }
        const current = (await store.channels.findById(channel.id)) ?? channel;
        reply(await calls.requestCallback(current, visitor, (raw as { phone?: unknown } | null)?.phone));
      } catch (err) {
        log.error({ err, visitor: socket.data.visitor.id }, 'callback request failed');
        reply({ result: 'fail', reason: 'Callback unavaiable', detail: 'The call could not be requested; try again' });
      }
    });
  });

  async function refresh(channelId: number, clientId?: number) {
    const sockets = await nsp.in(clientId === undefined ? channelVisitorsRoom(channelId) : visitorRoom(clientId)).fetchSockets();
    if (sockets.length === 0) return;
    const channel = await store.channels.findById(channelId);
    if (!channel) return;
    const now = new Date();
    for (const socket of sockets) {
      const availability = await calls.availabilityFor(channel, socket.data.visitor.id, now);
      const json = JSON.stringify(availability);
      if (heard.get(socket.id) === json) continue;
      heard.set(socket.id, json);
      socket.emit('callback', availability);
    }
  }
  const guard = (work: Promise<unknown>) => void work.catch((err: unknown) => log.error({ err }, 'callback update failed'));

  events.on('call.updated', ({ call }) => {
    if (call.clientId === null) return;
    nsp.to(visitorRoom(call.clientId)).emit('call', visitorCallView(call));
    // Starting or ending a call changes "a call is already in progress" for its visitor; minutes spent reach
    // the channel's other visitors through callback.settings.
    if (call.status === 'start' || finalCallStatuses.includes(call.status)) guard(refresh(call.channelId, call.clientId));
  });
  events.on('callback.settings', ({ channelId }) => guard(refresh(channelId)));
  events.on('channel.status', ({ channelId }) => guard(refresh(channelId)));

  const clock = setInterval(() => {
    if (nsp.sockets.size === 0) return;
    const channelIds = new Set([...nsp.sockets.values()].map((s) => s.data.channel.id));
    for (const channelId of channelIds) guard(refresh(channelId));
  }, CLOCK_MS);
  clock.unref();
  return { stop: () => clearInterval(clock) };
}
