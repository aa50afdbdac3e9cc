import { chatIdFromParam } from '../conversations/chat-param.ts';
import type Router from '@koa/router';
import { readSchema } from '@svc/protocol';
import type { ConversationService } from '../conversations/conversation-service.ts';
import { chatView } from '../conversations/views.ts';
import { currentAgent, requireAgent } from '../http/auth.ts';
import { invalidRequest } from '../http/errors.ts';
import { parseOr400 } from '../http/validate.ts';
import type { ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

const HISTORY_LIMIT = 50;

/** Unread marks per agent (`POST /chats/:id/read`) and the client's earlier chats (`GET /chats/:id/history`). */
export function registerReadRoutes(router: Router, deps: { store: Store; conversations: ConversationService }): void {
  const { store, conversations } = deps;
  const agent = requireAgent(store);

  router.post('/api/v1/chats/:id/read', agent, async (ctx) => {
    const chat = await conversations.chatForAgent(currentAgent(ctx), chatIdFromParam(ctx.params.id));
    const { message_id } = parseOr400(readSchema, ctx.request.body);
    const message = await store.messages.findById(message_id);
    if (!message || message.chatId !== chat.id) throw invalidRequest('message_id: no such message in this chat');
    await store.chatReads.markRead(currentAgent(ctx).id, chat.id, message.id);
    ctx.status = 204;
  });

  router.get('/api/v1/chats/:id/history', agent, async (ctx) => {
    const chat = await conversations.chatForAgent(currentAgent(ctx), chatIdFromParam(ctx.params.id));
    const ids = await store.chatReads.otherChatsOfClient(chat.id, HISTORY_LIMIT);
    const chats = (await Promise.all(ids.map((id) => store.chats.findById(id)))).filter((c): c is ChatRecord => c !== undefined);
    ctx.body = { chats: chats.map(chatView) };
  });
}
