import { finalCallStatuses, type CallRequestAnswer } from '@svc/protocol';
import type { Logger } from 'pino';
import type { CallService } from '../../calls/call-service.ts';
import { visitorCallView } from '../../calls/call-views.ts';
import type { ClusterNotices } from '../../cluster/cluster-notices.ts';
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
  deps: { store: Store; events: DomainEvents; calls: CallService; rateLimits: RateLimits; log: Logger; notices: ClusterNotices },
) {
  const { store, events, calls, log, notices } = deps;
  /** The availability each of this node's sockets last heard, so only changes are sent. */
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

  /** Each node refreshes its own sockets only: `heard` is this node's memory of what they were told. */
  async function refresh(channelId: number, clientId?: number) {
    const room = clientId === undefined ? channelVisitorsRoom(channelId) : visitorRoom(clientId);
    const sockets = await nsp.in(room).local.fetchSockets();
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
  /** A channel's refreshes run one after another: each reads the channel as it starts, and one that ran beside a
   * later one could tell a visitor, after it, what the later one had already put right. */
  const inTurn = new Map<number, Promise<unknown>>();
  function refreshInTurn(channelId: number, clientId?: number) {
    const work = (inTurn.get(channelId) ?? Promise.resolve()).then(() => refresh(channelId, clientId));
    const done = work.catch(() => undefined);
    inTurn.set(channelId, done);
    void done.then(() => inTurn.get(channelId) === done && inTurn.delete(channelId));
    return work;
  }
  const guard = (work: Promise<unknown>) => void work.catch((err: unknown) => log.error({ err }, 'callback update failed'));

  events.on('call.updated', ({ call }) => {
    if (call.clientId === null) return;
    nsp.to(visitorRoom(call.clientId)).emit('call', visitorCallView(call));
    // Starting or ending a call changes "a call is already in progress" for its visitor; minutes spent reach
    // the channel's other visitors through callback.settings.
    if (call.status === 'start' || finalCallStatuses.includes(call.status))
      notices.publish('callback.changed', { channelId: call.channelId, clientId: call.clientId });
  });
  // The change happened on one node; the visitors it concerns may be connected to any.
  events.on('callback.settings', ({ channelId }) => notices.publish('callback.changed', { channelId }));
  events.on('channel.status', ({ channelId }) => notices.publish('callback.changed', { channelId }));
  notices.on('callback.changed', ({ channelId, clientId }) => guard(refreshInTurn(channelId, clientId)));

  const clock = setInterval(() => {
    if (nsp.sockets.size === 0) return;
    const channelIds = new Set([...nsp.sockets.values()].map((s) => s.data.channel.id));
    for (const channelId of channelIds) guard(refreshInTurn(channelId));
  }, CLOCK_MS);
  clock.unref();
  return { stop: () => clearInterval(clock) };
}
