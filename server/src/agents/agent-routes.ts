import { chatIdFromParam } from '../conversations/chat-param.ts';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import {
  agentMessageSchema,
  chatListQuerySchema,
  closeChatSchema,
  loginSchema,
  messageListQuerySchema,
  presenceSchema,
  typingSchema,
  type ChatListView,
  type MessageListView,
} from '@svc/protocol';
import { z } from 'zod';
import type { ConversationService } from '../conversations/conversation-service.ts';
import { agentView, chatView, messageView } from '../conversations/views.ts';
import { currentAgent, requireAgent } from '../http/auth.ts';
import { AppError, notFound } from '../http/errors.ts';
import { routePattern, type DirectRoute } from '../http/lane-by-prefix.ts';
import { sourceAddress, type RateLimits } from '../http/rate-limits.ts';
import { parseOr400 } from '../http/validate.ts';
import type { Store } from '../store/store.ts';
import type { AgentService } from './agent-service.ts';
import { inboxCursor, readInboxCursor } from './inbox-cursor.ts';

interface AgentRouteDeps {
  store: Store;
  agents: AgentService;
  conversations: ConversationService;
  rateLimits: RateLimits;
  /** Where the routes look tokens up: a cache the cluster notices keep right (the store when not given). */
  agentTokens?: Pick<Store['agents'], 'findByTokenHash'>;
}

const messageIdParam = z.coerce.number().int().positive();
/** Calls without `limit` answer as before paging existed: at most this many chats. */
const UNPAGED_CHATS = 500;
/** A `before` without `limit`: every older message. */
const UNPAGED_MESSAGES = Number.MAX_SAFE_INTEGER - 1;

const SEND_MESSAGE = routePattern('/api/v1/chats/:id/messages');

/** The agent API of the contract: login, presence, and the chats of the agent's channels. Returns the agent's
 * message as a route that runs ahead of the router (http/lane-by-prefix.ts). */
export function registerAgentRoutes(router: Router, deps: AgentRouteDeps): DirectRoute[] {
  const { store, conversations } = deps;
  const agent = requireAgent(store, deps.agentTokens);

  router.post('/api/v1/auth/login', async (ctx) => {
    const address = sourceAddress(ctx);
    await deps.rateLimits.failedLogins.check(address);
    const { email, password } = parseOr400(loginSchema, ctx.request.body);
    try {
      const { agent: who, token } = await deps.agents.login(email, password);
      ctx.body = { token, agent: agentView(who) };
    } catch (err) {
      if (err instanceof AppError && err.code === 'invalid_client') await deps.rateLimits.failedLogins.fail(address);
      throw err;
    }
  });

  router.post('/api/v1/auth/logout', agent, async (ctx) => {
    await deps.agents.logout(ctx.state.tokenHash as string);
    ctx.status = 204;
  });

  router.get('/api/v1/me', agent, async (ctx) => {
    const me = currentAgent(ctx);
    ctx.body = { agent: agentView(me), role: me.role, channel_ids: await store.agents.channelIds(me.id) };
  });

  router.put('/api/v1/me/presence', agent, async (ctx) => {
    const { status } = parseOr400(presenceSchema, ctx.request.body);
    const updated = await deps.agents.setPresence(currentAgent(ctx), status);
    ctx.body = { status: updated.status };
  });

  router.get('/api/v1/chats', agent, async (ctx) => {
    const { state, limit, cursor } = parseOr400(chatListQuerySchema, ctx.query, 'query');
    const from = cursor === undefined ? null : readInboxCursor(cursor);
    const page = await store.chats.listForAgent(currentAgent(ctx).id, state, limit ?? UNPAGED_CHATS, from);
    const unread = await store.chatReads.unreadCounts(
      currentAgent(ctx).id,
      page.chats.map((c) => c.id),
    );
    const body: ChatListView = {
      chats: page.chats.map((c) => ({ ...chatView(c), unread: unread.get(c.id) ?? 0 })),
      next: page.next && inboxCursor(page.next),
      total: page.total,
    };
    ctx.body = body;
  });

  router.get('/api/v1/chats/:id', agent, async (ctx) => {
    ctx.body = { chat: chatView(await conversations.chatForAgent(currentAgent(ctx), chatIdFromParam(ctx.params.id))) };
  });

  router.get('/api/v1/chats/:id/messages', agent, async (ctx) => {
    const chat = await conversations.chatForAgent(currentAgent(ctx), chatIdFromParam(ctx.params.id));
    const { limit, before } = parseOr400(messageListQuerySchema, ctx.query, 'query');
    if (limit === undefined && before === undefined) {
      ctx.body = { messages: (await store.messages.listForAgents(chat.id)).map(messageView), next: null };
      return;
    }
    const page = await store.messages.pageByChat(chat.id, limit ?? UNPAGED_MESSAGES, before ?? null, 'forAgents');
    const body: MessageListView = { messages: page.messages.map(messageView), next: page.next };
    ctx.body = body;
  });

  const sendMessage: Middleware = async (ctx) => {
    const chat = await conversations.chatForAgent(currentAgent(ctx), chatIdFromParam(ctx.params.id));
    const request = parseOr400(agentMessageSchema, ctx.request.body);
    const message = await conversations.sendAgentMessage(currentAgent(ctx), chat, request);
    ctx.status = 201;
    ctx.body = { message: messageView(message) };
  };
  router.post(SEND_MESSAGE.path, agent, sendMessage);

  router.post('/api/v1/chats/:id/messages/:messageId/resend', agent, async (ctx) => {
    const messageId = messageIdParam.safeParse(ctx.params.messageId);
    if (!messageId.success) throw notFound('No such message');
    const message = await conversations.resendFailedMessage(currentAgent(ctx), chatIdFromParam(ctx.params.id), messageId.data);
    ctx.body = { message: messageView(message) };
  });

  router.post('/api/v1/chats/:id/typing', agent, async (ctx) => {
    const id = chatIdFromParam(ctx.params.id);
    await conversations.chatForAgent(currentAgent(ctx), id);
    const { state } = parseOr400(typingSchema, ctx.request.body);
    await conversations.agentTyping(currentAgent(ctx), id, state);
    ctx.status = 204;
  });

  router.post('/api/v1/chats/:id/accept', agent, async (ctx) => {
    ctx.body = { chat: chatView(await conversations.accept(currentAgent(ctx), chatIdFromParam(ctx.params.id))) };
  });

  router.delete('/api/v1/chats/:id/blacklist', agent, async (ctx) => {
    ctx.body = { chat: chatView(await conversations.unblock(currentAgent(ctx), chatIdFromParam(ctx.params.id))) };
  });

  router.post('/api/v1/chats/:id/close', agent, async (ctx) => {
    const id = chatIdFromParam(ctx.params.id);
    await conversations.chatForAgent(currentAgent(ctx), id);
    const { blacklist } = parseOr400(closeChatSchema, ctx.request.body ?? {});
    ctx.body = { chat: chatView(await conversations.close(currentAgent(ctx), id, blacklist)) };
  });

  return [{ method: 'POST', ...SEND_MESSAGE, handler: (ctx, next) => agent(ctx, () => sendMessage(ctx, next)) }];
}
