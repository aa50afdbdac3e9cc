import type Router from '@koa/router';
import type { CrmView, WebhookPayload } from '@svc/protocol';
import { z } from 'zod';
import type { ConversationService } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { chatView } from '../conversations/views.ts';
import { currentAgent, requireAgent } from '../http/auth.ts';
import { invalidRequest, notFound } from '../http/errors.ts';
import { newEventId } from '../lib/random-id.ts';
import type { Store } from '../store/store.ts';
import { commonFields, webhookAgent } from './webhook-payloads.ts';
import { WEBHOOK_DELIVERY, WEBHOOK_RETRIES } from './webhook-sender.ts';

const idParam = z.coerce.number().int().positive();

/** The CRM bind button (spec 3, 6.2): binding a chat to the CRM card sends chat_assigned with `assign_to`. */
export function registerCrmRoutes(router: Router, deps: { store: Store; events: DomainEvents; conversations: ConversationService }): void {
  const { store, events } = deps;

  router.post('/api/v1/chats/:id/crm-assign', requireAgent(store), async (ctx) => {
    const id = idParam.safeParse(ctx.params.id);
    if (!id.success) throw notFound('No such chat');
    const agent = currentAgent(ctx);
    const chat = await deps.conversations.chatForAgent(agent, id.data);
    const crm = chat.crm;
    if (!crm?.enable_assign || !crm.crm_link) throw invalidRequest("The site owner's server did not offer a CRM card for this chat");
    const channel = (await store.channels.findById(chat.channelId))!;
    if (!crm.assigned_to && channel.webhookUrl && channel.webhookEvents.includes('chat_assigned')) {
      const eventId = newEventId();
      const payload: WebhookPayload = {
        ...(await commonFields(store, channel, chat, 'chat_assigned', eventId)),
        event_name: 'chat_assigned',
        chat_id: chat.id,
        agent: webhookAgent(agent),
        assign_to: crm.crm_link,
      };
      await store.deliveries.enqueue({
        kind: WEBHOOK_DELIVERY,
        channelId: channel.id,
        chatId: chat.id,
        messageId: null,
        url: channel.webhookUrl,
        payload,
        maxAttempts: 1 + WEBHOOK_RETRIES,
        eventId,
        orderingKey: `webhook-chat:${chat.id}`,
      });
      events.emit('delivery.enqueued');
    }
    const bound: CrmView = { ...crm, assigned_to: crm.crm_link };
    await store.chats.setCrm(chat.id, bound);
    const updated = (await store.chats.findById(chat.id))!;
    events.emit('chat.updated', { chat: updated });
    ctx.body = { chat: chatView(updated) };
  });
}
