import type { WebhookEventName, WebhookPayload } from '@svc/protocol';
import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { newEventId } from '../lib/random-id.ts';
import type { WebhookNotices } from '../conversations/conversation-service.ts';
import type { ChannelRecord, ChatRecord, NewDelivery } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { chatLog, commonFields, webhookAgent } from './webhook-payloads.ts';
import { WEBHOOK_DELIVERY, WEBHOOK_RETRIES } from './webhook-sender.ts';

type ChatFinished = Extract<WebhookPayload, { event_name: 'chat_finished' }>;

/** The parts of a server webhook's delivery row that do not depend on the event. */
async function webhookDelivery(
  store: Store,
  chat: ChatRecord,
  eventName: WebhookEventName,
  build: (channel: ChannelRecord, eventId: string) => Promise<{ payload: WebhookPayload; dueAt?: number }>,
): Promise<NewDelivery | null> {
  const channel = await store.channels.findById(chat.channelId);
  if (!channel || channel.kind !== 'widget' || !channel.webhookUrl || !channel.webhookEvents.includes(eventName)) return null;
  const eventId = newEventId();
  const { payload, dueAt } = await build(channel, eventId);
  return {
    kind: WEBHOOK_DELIVERY,
    channelId: channel.id,
    url: channel.webhookUrl,
    payload,
    dueAt,
    maxAttempts: 1 + WEBHOOK_RETRIES,
    eventId,
    orderingKey: `webhook-chat:${chat.id}`,
  };
}

/**
 * chat_finished (spec 6.2), written by the close itself (conversation-service closeChat), so a close is never
 * stored without it. The widget asks the visitor to rate a chat only once it has ended (and only if an agent
 * answered in it), so such a chat's chat_finished waits in the outbox up to `ratingWindowMs` for the rating
 * (attachWebhookFlow releases it); later rows of the chat's ordering key wait behind it, so order holds.
 */
export function createWebhookNotices(deps: { store: Store; ratingWindowMs: number }): WebhookNotices {
  const { store, ratingWindowMs } = deps;
  return {
    chatFinished: (closing) =>
      webhookDelivery(store, closing, 'chat_finished', async (channel, eventId) => {
        const messages = await store.messages.listByChat(closing.id);
        const agentIds = [
          ...new Set([closing.assignedAgentId, ...messages.map((m) => m.agentId)].filter((id): id is number => id !== null)),
        ];
        const agents = (await Promise.all(agentIds.map((id) => store.agents.findById(id)))).filter((a) => a !== undefined);
        // The widget's condition for asking (widget/src/ui/MessageList.tsx): an agent answered in the chat.
        const ratingAsked = closing.rate === null && messages.some((m) => m.author === 'agent');
        return {
          payload: {
            ...(await commonFields(store, channel, closing, 'chat_finished', eventId)),
            event_name: 'chat_finished',
            chat_id: closing.id,
            agents: agents.map(webhookAgent),
            chat: { messages: chatLog(messages), rate: closing.rate, blacklisted: closing.blacklisted },
          },
          dueAt: ratingAsked && ratingWindowMs > 0 ? Date.now() + ratingWindowMs : undefined,
        };
      }),
  };
}

/**
 * Server webhooks as domain rules (spec 6.2): a held chat_finished released by the visitor's rating, and
 * chat_updated when a widget visitor fills in contact details; each enabled on the channel and sent through
 * the outbox.
 */
export function attachWebhookFlow(deps: { store: Store; events: DomainEvents; log: Logger; ratingWindowMs: number }) {
  const { store, events, log, ratingWindowMs } = deps;

  /** Puts the chat's rating in its held chat_finished and sends it now; nothing when none is held. */
  async function releaseRated(chat: ChatRecord) {
    if (chat.rate === null) return;
    const released = await store.deliveries.releaseHeld(
      chat.id,
      WEBHOOK_DELIVERY,
      (payload) => {
        const held = payload as WebhookPayload;
        return held.event_name === 'chat_finished' ? ({ ...held, chat: { ...held.chat, rate: chat.rate } } satisfies ChatFinished) : null;
      },
      Date.now(),
    );
    if (released) events.emit('delivery.enqueued');
  }

  const guard = (what: string, work: Promise<unknown>) => void work.catch((err: unknown) => log.error({ err }, `webhook ${what} failed`));

  // A rating that came while the close was being written found nothing to release: look again.
  events.on('chat.closed', ({ chat }) => {
    if (ratingWindowMs > 0) guard('chat_finished rating', (async () => releaseRated((await store.chats.findById(chat.id)) ?? chat))());
  });

  events.on('chat.rated', ({ chat }) => {
    if (chat.state === 'closed' && ratingWindowMs > 0) guard('chat_finished rating', releaseRated(chat));
  });

  events.on('visitor.introduced', ({ clientId }) =>
    guard(
      'chat_updated',
      (async () => {
        const live = await store.visitors.liveChat(clientId);
        const chat = live ? await store.chats.findById(live.id) : undefined;
        if (!chat) return;
        const delivery = await webhookDelivery(store, chat, 'chat_updated', async (channel, eventId) => {
          const agent = chat.assignedAgentId === null ? undefined : await store.agents.findById(chat.assignedAgentId);
          return {
            payload: {
              ...(await commonFields(store, channel, chat, 'chat_updated', eventId)),
              event_name: 'chat_updated',
              chat_id: chat.id,
              agent: agent ? webhookAgent(agent) : null,
            },
          };
        });
        if (!delivery) return;
        await store.deliveries.enqueue({ ...delivery, chatId: chat.id, messageId: null });
        events.emit('delivery.enqueued');
      })(),
    ),
  );
}
