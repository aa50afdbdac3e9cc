import type { ServiceEvent } from '@svc/protocol';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { randomToken } from '../lib/secrets.ts';
import type { BotProviderRecord, ChannelRecord, ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

export const BOT_DELIVERY = 'bot';

/** Enqueues service-to-provider events (spec 6.1) in the outbox, one chat's events in order. */
export function createBotOutbox(deps: { store: Store; events: DomainEvents; retries: number }) {
  const { store, events } = deps;
  return {
    async send(provider: BotProviderRecord, channel: ChannelRecord, chat: ChatRecord, event: ServiceEventBody): Promise<void> {
      if (!channel.bot) return;
      // The event id is the delivery's: the same on every retry, so a provider can de-duplicate.
      const eventId = `evt_${randomToken(16)}`;
      const payload = { ...event, id: eventId, client_id: chat.client.externalKey, chat_id: String(chat.id) };
      await store.deliveries.enqueue({
        kind: BOT_DELIVERY,
        channelId: channel.id,
        chatId: chat.id,
        messageId: null,
        url: `${provider.endpoint}/${encodeURIComponent(channel.bot.token)}`,
        payload,
        maxAttempts: 1 + deps.retries,
        eventId,
        orderingKey: `bot-chat:${chat.id}`,
      });
      events.emit('delivery.enqueued');
    },
  };
}
/** An event without the fields the outbox fills in. */
export type ServiceEventBody = ServiceEvent extends infer T
  ? T extends ServiceEvent
    ? Omit<T, 'id' | 'client_id' | 'chat_id'>
    : never
  : never;
export type BotOutbox = ReturnType<typeof createBotOutbox>;
