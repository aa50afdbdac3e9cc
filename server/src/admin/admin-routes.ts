import type Router from '@koa/router';
import {
  createAgentSchema,
  createBotProviderSchema,
  createChannelSchema,
  updateAgentSchema,
  updateChannelSchema,
  type BotEventsView,
  type BotProviderView,
} from '@svc/protocol';
import { z } from 'zod';
import type { AgentService } from '../agents/agent-service.ts';
import { agentView, iso } from '../conversations/views.ts';
import { channelView } from '../channels/channel-views.ts';
import type { ChannelService } from '../channels/channel-service.ts';
import { currentAdminAgent, requireAdmin } from '../http/auth.ts';
import { invalidRequest, notFound } from '../http/errors.ts';
import { parseOr400 } from '../http/validate.ts';
import { outboundUrlProblem, type UrlPolicy } from '../lib/outbound-url.ts';
import type { PublicUrls } from '../lib/public-urls.ts';
import { randomToken } from '../lib/secrets.ts';
import type { BotProviderRecord, ChannelRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

interface AdminDeps {
  store: Store;
  agents: AgentService;
  channels: ChannelService;
  urls: PublicUrls;
  urlPolicy: UrlPolicy;
  adminTokenHash: string;
}

const idParam = z.coerce.number().int().positive();

/** The admin API of the contract, behind `Authorization: Bearer <SVC_ADMIN_TOKEN>`. */
export function registerAdminRoutes(router: Router, deps: AdminDeps): void {
  const { store, urls } = deps;
  const admin = requireAdmin(deps.adminTokenHash, store);

  const present = async (c: ChannelRecord) =>
    channelView(c, await store.channels.status(c.id), urls, c.kind === 'widget' ? await store.channelSites.list(c.id) : []);
  const providerView = (p: BotProviderRecord): BotProviderView => ({
    provider_id: p.providerId,
    name: p.name,
    endpoint: p.endpoint,
    bot_url: urls.botUrl,
    auth: p.auth && { token_url: p.auth.token_url, client_id: p.auth.client_id },
  });
  const channelId = (raw: string) => {
    const id = idParam.safeParse(raw);
    if (!id.success) throw notFound('No such channel');
    return id.data;
  };

  router.post('/api/v1/agents', admin, async (ctx) => {
    const { agent, token } = await deps.agents.create(parseOr400(createAgentSchema, ctx.request.body));
    ctx.status = 201;
    ctx.body = { ...agentView(agent), token };
  });

  router.get('/api/v1/agents', admin, async (ctx) => {
    ctx.body = { agents: (await store.agents.list()).map(agentView) };
  });

  const agentId = (raw: string) => {
    const id = idParam.safeParse(raw);
    if (!id.success) throw notFound('No such agent');
    return id.data;
  };

  router.get('/api/v1/agents/:id', admin, async (ctx) => {
    const agent = await store.agents.findById(agentId(ctx.params.id!));
    if (!agent) throw notFound('No such agent');
    ctx.body = { ...agentView(agent), channel_ids: await store.agents.channelIds(agent.id) };
  });

  router.patch('/api/v1/agents/:id', admin, async (ctx) => {
    const request = parseOr400(updateAgentSchema, ctx.request.body ?? {});
    const agent = await deps.agents.update(agentId(ctx.params.id!), request, currentAdminAgent(ctx));
    ctx.body = { ...agentView(agent), channel_ids: await store.agents.channelIds(agent.id) };
  });

  router.post('/api/v1/channels', admin, async (ctx) => {
    const channel = await deps.channels.create(parseOr400(createChannelSchema, ctx.request.body));
    ctx.status = 201;
    ctx.body = await present(channel);
  });

  router.get('/api/v1/channels', admin, async (ctx) => {
    ctx.body = { channels: await Promise.all((await store.channels.list()).map(present)) };
  });

  router.get('/api/v1/channels/:id', admin, async (ctx) => {
    const channel = await store.channels.findById(channelId(ctx.params.id!));
    if (!channel) throw notFound('No such channel');
    ctx.body = await present(channel);
  });

  router.patch('/api/v1/channels/:id', admin, async (ctx) => {
    const id = channelId(ctx.params.id!);
    const request = parseOr400(updateChannelSchema, ctx.request.body ?? {});
    ctx.body = await present(await deps.channels.update(id, request));
  });

  router.post('/api/v1/channels/:id/rotate-signing-secret', admin, async (ctx) => {
    ctx.body = await present(await deps.channels.rotateSigningSecret(channelId(ctx.params.id!)));
  });

  router.delete('/api/v1/channels/:id', admin, async (ctx) => {
    await deps.channels.delete(channelId(ctx.params.id!));
    ctx.status = 204;
  });

  router.post('/api/v1/bot-providers', admin, async (ctx) => {
    const request = parseOr400(createBotProviderSchema, ctx.request.body);
    for (const [field, url] of [
      ['endpoint', request.endpoint],
      ['auth.token_url', request.auth?.token_url],
    ] as const) {
      const problem = url ? await outboundUrlProblem(url, deps.urlPolicy) : null;
      if (problem) throw invalidRequest(`${field} ${problem}`);
    }
    const provider = await store.botProviders.create({
      providerId: randomToken(12),
      name: request.name,
      endpoint: request.endpoint.replace(/\/+$/, ''),
      auth: request.auth ?? null,
    });
    ctx.status = 201;
    ctx.body = providerView(provider);
  });

  /** Every event exchanged with the chat's bot, both ways, each outbound one with all its attempts. */
  router.get('/api/v1/chats/:id/bot-events', admin, async (ctx) => {
    const id = idParam.safeParse(ctx.params.id);
    const chat = id.success ? await store.chats.findById(id.data) : undefined;
    if (!chat) throw notFound('No such chat');
    const sent = (await store.deliveries.listByChat(chat.id)).filter((d) => d.kind === 'bot');
    const body: BotEventsView = {
      sent: await Promise.all(
        sent.map(async (d) => ({
          event_id: d.eventId,
          event: (d.payload as { event?: string }).event,
          payload: d.payload,
          state: d.state,
          attempts: (await store.deliveries.attempts(d.id)).map((a) => ({ status: a.status, error: a.error, at: iso(a.at) })),
          created_at: iso(d.createdAt),
        })),
      ),
      received: (await store.botEvents.listByChat(chat.id)).map((e) => ({
        event: e.event,
        body: e.body,
        status: e.status,
        error: e.error,
        at: iso(e.createdAt),
      })),
    };
    ctx.body = body;
  });

  router.get('/api/v1/bot-providers', admin, async (ctx) => {
    ctx.body = { bot_providers: (await store.botProviders.list()).map(providerView) };
  });
}
