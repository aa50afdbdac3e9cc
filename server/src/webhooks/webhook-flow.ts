import type { WebhookEventName, WebhookPayload } from '@svc/protocol';
import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { randomToken } from '../lib/secrets.ts';
import type { ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { chatLog, commonFields, webhookAgent } from './webhook-payloads.ts';
import { WEBHOOK_DELIVERY, WEBHOOK_RETRIES } from './webhook-sender.ts';

/** Server webhooks as domain rules (spec 6.2): chat_finished when a widget chat closes, chat_updated when its
 * visitor fills in contact details; each enabled on the channel and sent through the outbox. */
export function attachWebhookFlow(deps: { store: Store; events: DomainEvents; log: Logger }) {
  const { store, events, log } = deps;

  async function enqueue(chat: ChatRecord, eventName: WebhookEventName, build: (eventId: string) => Promise<WebhookPayload>) {
    const channel = await store.channels.findById(chat.channelId);
    if (!channel || channel.kind !== 'widget' || !channel.webhookUrl || !channel.webhookEvents.includes(eventName)) return;
    const eventId = `evt_${randomToken(16)}`;
    await store.deliveries.enqueue({
      kind: WEBHOOK_DELIVERY,
      channelId: channel.id,
      chatId: chat.id,
      messageId: null,
      url: channel.webhookUrl,
      payload: await build(eventId),
      maxAttempts: 1 + WEBHOOK_RETRIES,
      eventId,
      orderingKey: `webhook-chat:${chat.id}`,
    });
    events.emit('delivery.enqueued');
  }

  const guard = (what: string, work: Promise<unknown>) => void work.catch((err: unknown) => log.error({ err }, `webhook ${what} failed`));

  events.on('chat.closed', ({ chat }) =>
    guard(
      'chat_finished',
      enqueue(chat, 'chat_finished', async (eventId) => {
        const channel = (await store.channels.findById(chat.channelId))!;
        const messages = await store.messages.listByChat(chat.id);
        const agentIds = [...new Set([chat.assignedAgentId, ...messages.map((m) => m.agentId)].filter((id): id is number => id !== null))];
        const agents = (await Promise.all(agentIds.map((id) => store.agents.findById(id)))).filter((a) => a !== undefined);
        return {
          ...(await commonFields(store, channel, chat, 'chat_finished', eventId)),
          event_name: 'chat_finished',
          chat_id: chat.id,
          agents: agents.map(webhookAgent),
          chat: { messages: chatLog(messages), rate: chat.rate, blacklisted: chat.blacklisted },
        };
      }),
    ),
  );

  events.on('visitor.introduced', ({ clientId }) =>
    guard(
      'chat_updated',
      (async () => {
        const live = await store.visitors.liveChat(clientId);
        const chat = live ? await store.chats.findById(live.id) : undefined;
        if (!chat) return;
        await enqueue(chat, 'chat_updated', async (eventId) => {
          const channel = (await store.channels.findById(chat.channelId))!;
          const agent = chat.assignedAgentId === null ? undefined : await store.agents.findById(chat.assignedAgentId);
          return {
            ...(await commonFields(store, channel, chat, 'chat_updated', eventId)),
            event_name: 'chat_updated',
            chat_id: chat.id,
            agent: agent ? webhookAgent(agent) : null,
          };
        });
      })(),
    ),
  );
}
