import type { Middleware } from 'koa';
import client from 'prom-client';
import type { Server as SocketServer } from 'socket.io';
import { AGENT_NAMESPACE, VISITOR_NAMESPACE } from '@svc/protocol';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { Admission } from '../http/admission.ts';
import type { Store } from '../store/store.ts';

interface MetricsDeps {
  store: Store;
  events: DomainEvents;
}

/**
 * The service's Prometheus metrics in a registry of its own (two servers in one process, as in tests, do not
 * share counters): prom-client's default process metrics (event-loop lag among them), HTTP request durations
 * per route and status, connected sockets, messages per channel kind, the outbox and its deliveries.
 */
export function createMetrics(deps: MetricsDeps) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'svc_' });
  let io: SocketServer | undefined;
  let admission: Admission | undefined;

  const httpDuration = new client.Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP requests by route (the router pattern, not the path), method and status',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new client.Gauge({
    name: 'svc_connected_sockets',
    help: 'Sockets connected to this node, by who holds them (visitor or agent)',
    labelNames: ['side'],
    registers: [registry],
    collect() {
      this.set({ side: 'visitor' }, io?.of(VISITOR_NAMESPACE).sockets.size ?? 0);
      this.set({ side: 'agent' }, io?.of(AGENT_NAMESPACE).sockets.size ?? 0);
    },
  });
  // Read from admission control when scraped: a refusal costs a counter increment, nothing more.
  new client.Counter({
    name: 'svc_http_refused_total',
    help: 'Chat API messages refused with 503 overloaded, by reason (in_flight: the admission limit; store_backlog: the store is behind)',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      if (!admission) return;
      this.reset();
      for (const [reason, count] of Object.entries(admission.refused())) this.inc({ reason }, count);
    },
  });
  new client.Gauge({
    name: 'svc_http_admission_limit',
    help: 'Chat API messages this node admits at once now (adaptive, at most SVC_MAX_IN_FLIGHT)',
    registers: [registry],
    collect() {
      if (admission) this.set(admission.limit());
    },
  });
  const messages = new client.Counter({
    name: 'svc_messages_total',
    help: 'Messages stored, by channel kind and direction (received from customers, sent to them)',
    labelNames: ['channel_kind', 'direction'],
    registers: [registry],
  });
  new client.Gauge({
    name: 'svc_outbox_pending',
    help: 'Outbound deliveries waiting to be sent, by kind (chat_api, webhook, bot, email)',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await deps.store.outboxStats.pendingByKind()) this.set({ kind: row.kind }, row.count);
    },
  });
  const deliveries = new client.Counter({
    name: 'svc_deliveries_total',
    help: 'Outbound deliveries finished, by kind and result (delivered or failed)',
    labelNames: ['kind', 'result'],
    registers: [registry],
  });
  const deliveryLatency = new client.Histogram({
    name: 'svc_delivery_seconds',
    help: 'From enqueueing to the final answer of a delivery (bot, webhook, chat_api, email), retries included',
    labelNames: ['kind'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });

  deps.events.on('message.created', ({ chat, message }) => {
    messages.inc({ channel_kind: chat.channelKind, direction: message.author === 'client' ? 'received' : 'sent' });
  });
  deps.events.on('delivery.finished', ({ delivery }) => {
    deliveries.inc({ kind: delivery.kind, result: delivery.state });
    deliveryLatency.observe({ kind: delivery.kind }, Math.max(0, Date.now() - delivery.createdAt) / 1000);
  });

  /** Times every request; registered outside the error middleware, so it sees the status that was sent. */
  const timeRequests: Middleware = async (ctx, next) => {
    const end = httpDuration.startTimer();
    try {
      await next();
    } finally {
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
      end({ route, method: ctx.method, status: String(ctx.status) });
    }
  };

  return {
    registry,
    timeRequests,
    /** The socket.io server whose namespaces are counted (made after the HTTP app). */
    watchSockets(server: SocketServer) {
      io = server;
    },
    /** The admission control whose refusals and limit are reported (made with the HTTP app). */
    watchAdmission(control: Admission) {
      admission = control;
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
