import type Router from '@koa/router';
import { callListQuerySchema, callStatusUpdateSchema, createCallSchema } from '@svc/protocol';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { bearerToken, currentAgent, requireAgent } from '../http/auth.ts';
import { notFound } from '../http/errors.ts';
import { parseOr400 } from '../http/validate.ts';
import { hashToken, safeEqual } from '../lib/secrets.ts';
import type { AgentRecord, ChannelRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { CallService } from './call-service.ts';
import { callView } from './call-views.ts';

const idParam = z.coerce.number().int().positive();

/**
 * Calls in the agent API (docs/agent-api.md, Calls). Agents act on the calls of their channels (another call
 * is a 404, like chats); the admin token may act on every call, which is how a provider integration reports.
 */
export function registerCallRoutes(router: Router, deps: { store: Store; calls: CallService; adminTokenHash: string }): void {
  const { store, calls } = deps;
  const agentOnly = requireAgent(store);
  const agentOrAdmin: Middleware = async (ctx, next) => {
    const token = bearerToken(ctx);
    if (token && safeEqual(hashToken(token), deps.adminTokenHash)) return next();
    return agentOnly(ctx, next);
  };
  const actingAgent = (ctx: Context): AgentRecord | null => (ctx.state.agent as AgentRecord | undefined) ?? null;
  const mayUse = (ctx: Context, channel: ChannelRecord | undefined): channel is ChannelRecord => {
    const agent = actingAgent(ctx);
    return channel !== undefined && (agent === null || channel.agentIds.includes(agent.id));
  };
  const callOf = async (ctx: Context) => {
    const id = idParam.safeParse(ctx.params.id);
    const call = id.success ? await store.calls.findById(id.data) : undefined;
    if (!call || !mayUse(ctx, await store.channels.findById(call.channelId))) throw notFound('No such call');
    return call;
  };

  router.get('/api/v1/calls', agentOnly, async (ctx) => {
    const { state } = parseOr400(callListQuerySchema, ctx.query, 'query');
    ctx.body = { calls: (await store.calls.listForAgent(currentAgent(ctx).id, state)).map(callView) };
  });

  router.get('/api/v1/calls/:id', agentOrAdmin, async (ctx) => {
    ctx.body = { call: callView(await callOf(ctx)) };
  });

  router.post('/api/v1/calls', agentOrAdmin, async (ctx) => {
    const request = parseOr400(createCallSchema, ctx.request.body);
    const channel = await store.channels.findById(request.channel_id);
    if (!mayUse(ctx, channel)) throw notFound('No such channel');
    ctx.status = 201;
    ctx.body = { call: callView(await calls.report(channel, request)) };
  });

  router.post('/api/v1/calls/:id/status', agentOrAdmin, async (ctx) => {
    const call = await callOf(ctx);
    const update = parseOr400(callStatusUpdateSchema, ctx.request.body);
    ctx.body = { call: callView(await calls.changeStatus(call, update, actingAgent(ctx))) };
  });
}
