import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { AGENT_NAMESPACE, VISITOR_NAMESPACE } from '@svc/protocol';
import type { Logger } from 'pino';
import { Server as SocketServer } from 'socket.io';
import { resolveAdminToken } from './admin/admin-token.ts';
import { attachBotFlow } from './bots/bot-flow.ts';
import { createBotInbound } from './bots/bot-inbound.ts';
import { BOT_DELIVERY, createBotNotices, createBotOutbox, createClientMessageForwarder } from './bots/bot-outbox.ts';
import { registerBotRoutes } from './bots/bot-routes.ts';
import { createBotLookup } from './bots/bot-lookup.ts';
import { botSender } from './bots/bot-sender.ts';
import { createProviderTokens } from './bots/oauth-tokens.ts';
import { registerAdminRoutes } from './admin/admin-routes.ts';
import { registerDeliveryLogRoutes } from './admin/delivery-log-routes.ts';
import { registerReportRoutes } from './reports/report-routes.ts';
import { registerPrivacyRoutes } from './privacy/privacy-routes.ts';
import { startRetentionSweep } from './privacy/retention-sweep.ts';
import { createMetrics } from './metrics/metrics.ts';
import { registerMetricsRoutes } from './metrics/metrics-routes.ts';
import { registerBusinessHoursRoutes } from './channels/business-hours/business-hours-routes.ts';
import { watchBusinessHours } from './channels/business-hours/hours-watch.ts';
import { createAgentService } from './agents/agent-service.ts';
import { registerAgentPhotoRoutes } from './agents/agent-photo-routes.ts';
import { registerAgentRoutes } from './agents/agent-routes.ts';
import { createAgentTokenCache } from './agents/agent-token-cache.ts';
import { attachAgentSocket } from './agents/agent-socket.ts';
import { consoleCallProvider } from './calls/call-provider.ts';
import { registerCallRoutes } from './calls/call-routes.ts';
import { createCallService } from './calls/call-service.ts';
import { createChannelLookupCache } from './channels/channel-lookup-cache.ts';
import { createChannelService } from './channels/channel-service.ts';
import { createClusterNotices } from './cluster/cluster-notices.ts';
import { connectRedis } from './cluster/redis-connection.ts';
import { chatApiOutbound, CHAT_API_DELIVERY } from './channels/chat-api/chat-api-outbound.ts';
import { attachVisitorCalls } from './channels/widget/visitor-calls.ts';
import { attachWidgetGateway } from './channels/widget/widget-gateway.ts';
import { registerOfflineMessageRoutes } from './channels/widget/offline-messages.ts';
import { registerIdentityRoutes } from './channels/widget/identity-routes.ts';
import { registerAppearanceRoutes } from './channels/widget/appearance-routes.ts';
import { registerTriggerRoutes } from './channels/widget/trigger-routes.ts';
import { widgetFramePolicy } from './channels/widget/frame-policy.ts';
import { registerWidgetRoutes } from './channels/widget/widget-routes.ts';
import { isChatApiIntake, registerChatApiRoutes } from './channels/chat-api/chat-api-routes.ts';
import { chatApiSender } from './channels/chat-api/chat-api-sender.ts';
import type { Config } from './config.ts';
import { startAutoClose } from './conversations/auto-close.ts';
import { createConversationService } from './conversations/conversation-service.ts';
import { createNoteService } from './notes/note-service.ts';
import { registerNoteRoutes } from './notes/note-routes.ts';
import { registerCannedReplyRoutes } from './canned-replies/canned-reply-routes.ts';
import { registerReadRoutes } from './reads/read-routes.ts';
import { registerSearchRoutes } from './search/search-routes.ts';
import { createTransferService } from './transfers/transfer-service.ts';
import { registerTransferRoutes } from './transfers/transfer-routes.ts';
import { DomainEvents } from './conversations/domain-events.ts';
import { DEMO_WIDGET_NAME, seedDemo, type DemoLogin } from './demo/seed-demo.ts';
import { createDeliveryWorker } from './delivery/delivery-worker.ts';
import { registerDepartmentRoutes } from './departments/department-routes.ts';
import { createDepartmentService } from './departments/department-service.ts';
import { dbIpCitySource } from './geoip/dbip-city.ts';
import { noGeoIp, publicOnly } from './geoip/geoip-source.ts';
import { closeWhenStopping } from './http/close-when-stopping.ts';
import { trackStalledExchanges } from './http/stalled-exchanges.ts';
import { answerAfterBroadcasts } from './http/broadcasts-written.ts';
import { errorMiddleware, responseErrorLogger } from './http/error-middleware.ts';
import { jsonBody } from './http/json-body.ts';
import { directRoutes, laneByPrefix } from './http/lane-by-prefix.ts';
import { partyAddress } from './http/party-address.ts';
import { securityHeaders } from './http/security-headers.ts';
import { createAdmission } from './http/admission.ts';
import { createRateLimits } from './http/rate-limits.ts';
import { requestLog } from './http/request-log.ts';
import { createLogger } from './logger.ts';
import { cleanPartySocketInput } from './lib/party-socket-input.ts';
import { PublicUrls } from './lib/public-urls.ts';
import { mountStaticSites } from './static-sites.ts';
import { registerOpenApiRoutes } from './openapi/openapi-routes.ts';
import { registeredRoutes, type RegisteredRoute } from './openapi/router-routes.ts';
import { openStore } from './store/open-store.ts';
import { attachChatAccepted } from './webhooks/chat-accepted.ts';
import { registerCrmRoutes } from './webhooks/crm-routes.ts';
import { attachWebhookFlow, createWebhookNotices } from './webhooks/webhook-flow.ts';
import { EMAIL_DELIVERY, emailSender } from './transcripts/email-sender.ts';
import { attachTranscriptFlow } from './transcripts/transcript-flow.ts';
import { registerTranscriptRoutes } from './transcripts/transcript-routes.ts';
import { WEBHOOK_DELIVERY, webhookSender } from './webhooks/webhook-sender.ts';
import { registerUploadRoutes, resolveOwnUpload } from './uploads/upload-routes.ts';
import { createUploadStore } from './uploads/upload-store.ts';

export interface RunningServer {
  url: string;
  port: number;
  urls: PublicUrls;
  /** Set only on the start that generated the admin token. */
  generatedAdminToken: string | undefined;
  demo: DemoLogin | undefined;
  sites: string[];
  /** Every HTTP route the routers answer: what GET /api/openapi.json must describe. */
  routes: RegisteredRoute[];
  log: Logger;
  /** Stops accepting, finishes requests and delivery attempts in flight, closes Redis (when used) and the database. */
  close(): Promise<void>;
}

/** Composition root: config -> db -> services -> http + socket.io -> listen. */
export async function startServer(config: Config, options: { log?: Logger } = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.logLevel);
  const store = await openStore({
    db: config.dbPath,
    sync: config.dbSync,
    poolSize: config.dbPoolSize,
    onErasuresCompleted: ({ count, pendingSince }) =>
      log.info(
        { erasures: count, pending_since: new Date(pendingSince).toISOString() },
        'erasures complete: the database files no longer hold the erased text',
      ),
  });
  const events = new DomainEvents();
  events.setMaxListeners(50);
  const metrics = createMetrics({ store, events });
  const urls = new PublicUrls();
  const urlPolicy = { allowPrivate: config.allowPrivateUrls };
  // Several nodes share one Redis: socket.io rooms and rate limits span them; one node needs none.
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, log) : undefined;
  const rateLimits = createRateLimits(config.rateLimits, redis?.client);
  const adminToken = await resolveAdminToken(store, config.adminToken);

  const uploads = createUploadStore(path.resolve(config.uploadsDir));
  const agents = createAgentService({ store, events });
  const channels = createChannelService({ store, events, urlPolicy });
  const channelLookup = createChannelLookupCache(store, { clustered: redis !== undefined });
  const agentTokens = createAgentTokenCache(store, { clustered: redis !== undefined });
  const departments = createDepartmentService({ store, events });
  const botLookup = createBotLookup(store, channelLookup);
  const geoip = config.geoip ? publicOnly(dbIpCitySource({ log })) : noGeoIp;
  const conversations = createConversationService({
    store,
    events,
    channels: channelLookup,
    forwarder: createClientMessageForwarder({ store, lookup: botLookup, retries: config.bot.retries }),
    botNotices: createBotNotices({ store, lookup: botLookup, retries: config.bot.retries }),
    webhookNotices: createWebhookNotices({ store, ratingWindowMs: config.ratingWindowMs }),
    outbounds: {
      chat_api: chatApiOutbound({ attempts: config.delivery.attempts }),
      // Widget visitors are reached over their socket; nothing to enqueue.
      widget: { messageDelivery: () => null, typingDelivery: () => null },
    },
  });
  const notes = createNoteService({ store, events, conversations });
  const transfers = createTransferService({ store, events, conversations });
  const calls = createCallService({ store, events, provider: consoleCallProvider, log });
  const providerTokens = createProviderTokens({ store, timeoutMs: config.bot.timeoutMs, urlPolicy });
  const botOutbox = createBotOutbox({ store, events, retries: config.bot.retries });
  const botInbound = createBotInbound({ store, conversations, outbox: botOutbox });
  attachBotFlow({ lookup: botLookup, events, conversations, log });
  attachWebhookFlow({ store, events, log, ratingWindowMs: config.ratingWindowMs });
  attachTranscriptFlow({ store, events, log, smtpConfigured: config.smtp !== null });
  attachChatAccepted({ store, events, log, timeoutMs: config.webhookTimeoutMs, urlPolicy });
  const worker = createDeliveryWorker({
    store,
    events,
    log,
    handlers: {
      [CHAT_API_DELIVERY]: chatApiSender({ channels: channelLookup, intervalMs: config.delivery.intervalMs, urlPolicy }),
      [WEBHOOK_DELIVERY]: webhookSender({
        channels: channelLookup,
        timeoutMs: config.webhookTimeoutMs,
        retryMs: config.webhookRetryMs,
        urlPolicy,
      }),
      [EMAIL_DELIVERY]: emailSender({ smtp: config.smtp, retryMs: config.webhookRetryMs }),
      [BOT_DELIVERY]: botSender({
        store,
        lookup: botLookup,
        timeoutMs: config.bot.timeoutMs,
        urlPolicy,
        tokens: providerTokens,
        inbound: () => botInbound,
      }),
    },
    leaseMs: Math.max(config.delivery.intervalMs, config.bot.timeoutMs, config.webhookTimeoutMs) * 2 + 10_000,
    // PostgreSQL may be shared by several nodes: look for their rows every second.
    maxIdleMs: store.dialect === 'postgres' ? 1000 : undefined,
  });

  // Behind a proxy only the address it appended (the last X-Forwarded-For entry) is trusted.
  const app = new Koa({ proxy: config.trustProxy, maxIpsCount: 1 });
  app.on('error', responseErrorLogger(log));
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });
  registerAdminRoutes(router, { store, agents, channels, urls, urlPolicy, adminTokenHash: adminToken.hash });
  registerDepartmentRoutes(router, { store, departments, adminTokenHash: adminToken.hash });
  const agentDirect = registerAgentRoutes(router, { store, agents, conversations, rateLimits, agentTokens });
  registerNoteRoutes(router, { store, notes });
  registerTransferRoutes(router, { store, transfers });
  registerCannedReplyRoutes(router, { store });
  registerReadRoutes(router, { store, conversations });
  registerSearchRoutes(router, { store });
  const chatApiRouter = new Router();
  const chatApiDirect = registerChatApiRoutes(chatApiRouter, { store, conversations, rateLimits, channelLookup });
  registerWidgetRoutes(router, { store, calls });
  registerTriggerRoutes(router, { store, adminTokenHash: adminToken.hash });
  registerAppearanceRoutes(router, { store, adminTokenHash: adminToken.hash });
  registerIdentityRoutes(router, { store, adminTokenHash: adminToken.hash });
  registerTranscriptRoutes(router, { store, adminTokenHash: adminToken.hash, smtpConfigured: config.smtp !== null });
  registerDeliveryLogRoutes(router, { store, events, adminTokenHash: adminToken.hash });
  registerReportRoutes(router, { store, adminTokenHash: adminToken.hash });
  registerMetricsRoutes(router, { store, metrics, adminTokenHash: adminToken.hash, metricsToken: config.metricsToken });
  registerPrivacyRoutes(router, { store, events, urls, uploadsDir: uploads.dir, adminTokenHash: adminToken.hash });
  registerBusinessHoursRoutes(router, { store, events, adminTokenHash: adminToken.hash });
  registerCallRoutes(router, { store, calls, adminTokenHash: adminToken.hash });
  registerCrmRoutes(router, { store, events, conversations });
  const offlineDirect = registerOfflineMessageRoutes(router, { store, events, rateLimits, channelLookup });
  registerBotRoutes(router, { store, inbound: botInbound, tokens: providerTokens, rateLimits });
  registerOpenApiRoutes(router, { urls });

  let stopping = false;
  const admission = createAdmission({
    maxInFlight: config.maxInFlight,
    adaptive: config.adaptiveAdmission,
    storeBacklog: () => store.writeBacklog(),
    guards: isChatApiIntake,
    stopping: () => stopping,
    log,
  });
  metrics.watchAdmission(admission);
  app.use(closeWhenStopping(() => stopping));
  app.use(requestLog(log));
  // Outside the error middleware, so error answers carry the headers too.
  app.use(securityHeaders({ https: config.publicUrl?.startsWith('https://') ?? false }));
  // The first refusal only (admission.ts): after the security headers, which every answer carries.
  app.use(admission.refuseInApp);
  app.use(metrics.timeRequests);
  app.use(errorMiddleware(log));
  app.use(partyAddress());
  app.use(laneByPrefix('/chat-api/', jsonBody(), chatApiRouter, chatApiDirect));
  // After the Chat API lane: its intake, answered after the stream write too, cost the nodes ~15% more CPU per
  // request (cluster bench at 600 req/s), and what it broadcasts goes to consoles only, not to widget visitors.
  if (redis) app.use(answerAfterBroadcasts(redis.broadcastsWritten));
  app.use(directRoutes(jsonBody(), [...agentDirect, ...offlineDirect]));
  const uploadRouter = new Router();
  registerUploadRoutes(uploadRouter, { store, uploads, urls, rateLimits });
  registerAgentPhotoRoutes(uploadRouter, { store, agents, uploads, urls, adminTokenHash: adminToken.hash });
  app.use(uploadRouter.routes());
  app.use(uploadRouter.allowedMethods({ throw: true }));
  app.use(widgetFramePolicy(store));
  const sites = mountStaticSites(app, config.staticDir, {
    demoEmbed: async () => {
      const channel = (await store.channels.list()).find((c) => c.kind === 'widget' && c.name === DEMO_WIDGET_NAME);
      return channel && urls.widgetEmbed(channel.publicId);
    },
  });
  app.use(jsonBody());
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));

  const httpServer = http.createServer(admission.guard(app.callback()));
  // Idle connections kept longer than the proxies in front keep theirs (nginx's upstream keepalive_timeout and
  // load balancers: 60 s), so a proxy never sends a request on a connection the node has just closed.
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  const stalled = trackStalledExchanges(httpServer);
  // The widget runs on the site owner's pages, any origin; sockets authenticate by token, never by cookie.
  const io = new SocketServer(httpServer, {
    serveClient: false,
    maxHttpBufferSize: 64 * 1024,
    cors: { origin: true, credentials: false },
    ...(redis ? { adapter: redis.adapter } : {}),
  });
  metrics.watchSockets(io);
  const notices = createClusterNotices(io, { clustered: redis !== undefined, log });
  channelLookup.follow(events, notices);
  agentTokens.follow(events, notices);
  // Before the namespaces' own middleware and handlers, which then see clean text only.
  for (const namespace of [AGENT_NAMESPACE, VISITOR_NAMESPACE]) cleanPartySocketInput(io.of(namespace));
  attachAgentSocket(io, { store, events, conversations, clustered: redis !== undefined });
  const visitors = attachWidgetGateway(io, {
    store,
    events,
    conversations,
    calls,
    rateLimits,
    log,
    resolveUpload: (url) => resolveOwnUpload(url, urls, uploads),
    trustProxy: config.trustProxy,
    geoip,
    departments,
    notices,
    broadcastsWritten: redis?.broadcastsWritten,
  });
  const visitorCalls = attachVisitorCalls(visitors, { store, events, calls, rateLimits, log, notices });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  urls.setBase(config.publicUrl ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`);
  const demo = config.demo ? await seedDemo({ store, agents, channels, urls, log }) : undefined;
  worker.start();
  const renewTokens = setInterval(() => void providerTokens.renewExpiring(), 15_000);
  renewTokens.unref();
  const sweep = setInterval(
    () => void store.chats.forgetIdempotencyKeys().catch((err: unknown) => log.error({ err }, 'sweep failed')),
    60 * 60 * 1000,
  );
  sweep.unref();
  const hoursWatch = watchBusinessHours({ store, events, log });
  const autoClose = startAutoClose({ store, conversations, intervalMs: config.autoCloseSweepMs, log });
  autoClose.tick();
  const retention = startRetentionSweep({ store, events, log, urls, uploadsDir: uploads.dir, everyMs: config.retentionSweepMs });

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    urls,
    generatedAdminToken: adminToken.generated,
    demo,
    sites,
    routes: registeredRoutes(uploadRouter, chatApiRouter, router),
    log,
    close() {
      closing ??= (async () => {
        stopping = true;
        clearInterval(sweep);
        clearInterval(renewTokens);
        visitorCalls.stop();
        hoursWatch.stop();
        await autoClose.stop();
        await retention.stop();
        // socket.io disconnects its clients and closes the HTTP server, which waits for requests in flight.
        const stopped = new Promise<void>((resolve) => void io.close(() => resolve()));
        // Closing the idle connections once is not enough: one whose request ends after this, or that Node does
        // not count as idle yet at this moment, would keep the server open for its whole keep-alive timeout.
        httpServer.closeIdleConnections();
        // Past the grace period, exchanges still sending or receiving are cut too, at every tick: one can stall
        // after an earlier cut.
        const graceEnds = performance.now() + config.shutdownGraceMs;
        const closeIdle = setInterval(() => {
          httpServer.closeIdleConnections();
          if (performance.now() < graceEnds) return;
          const cut = stalled.cut();
          if (cut > 0) log.warn({ cut }, 'shutdown: cut off answers still being sent and requests still being received');
        }, 100);
        await worker.stop();
        await stopped;
        clearInterval(closeIdle);
        // After socket.io (its adapter publishes through the client) and the requests and attempts in flight.
        notices.close();
        await redis?.close();
        await store.close();
      })();
      return closing;
    },
  };
}
