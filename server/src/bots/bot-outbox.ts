import type { ServiceEvent } from '@svc/protocol';
import type { BotNotices, ClientMessageForwarder } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { randomToken } from '../lib/secrets.ts';
import type { BotProviderRecord, ChannelRecord, ChatRecord, NewDelivery } from '../store/records.ts';
import type { Store } from '../store/store.ts';

export const BOT_DELIVERY = 'bot';

/** An event without the fields the outbox fills in. */
export type ServiceEventBody = ServiceEvent extends infer T
  ? T extends ServiceEvent
    ? Omit<T, 'id' | 'client_id' | 'chat_id'>
    : never
  : never;

/** The outbox row of one service-to-provider event (spec 6.1); one chat's events go in order. */
export function botEventDelivery(
  provider: BotProviderRecord,
  channel: ChannelRecord,
  chat: ChatRecord,
  event: ServiceEventBody,
  retries: number,
): NewDelivery {
  // The event id is the delivery's: the same on every retry, so a provider can de-duplicate.
  const eventId = `evt_${randomToken(16)}`;
  return {
    kind: BOT_DELIVERY,
    channelId: channel.id,
    url: `${provider.endpoint}/${encodeURIComponent(channel.bot!.token)}`,
    payload: { ...event, id: eventId, client_id: chat.client.externalKey, chat_id: String(chat.id) },
    maxAttempts: 1 + retries,
    eventId,
    orderingKey: `bot-chat:${chat.id}`,
  };
}

export function createBotOutbox(deps: { store: Store; events: DomainEvents; retries: number }) {
  const { store, events } = deps;
  return {
    async send(provider: BotProviderRecord, channel: ChannelRecord, chat: ChatRecord, event: ServiceEventBody): Promise<void> {
      if (!channel.bot) return;
      await store.deliveries.enqueue({
        ...botEventDelivery(provider, channel, chat, event, deps.retries),
        chatId: chat.id,
        messageId: null,
      });
      events.emit('delivery.enqueued');
    },
  };
}
export type BotOutbox = ReturnType<typeof createBotOutbox>;

/** Every client message of a chat the bot holds goes to it as CLIENT_MESSAGE, written with the message. */
export function createClientMessageForwarder(deps: { store: Store; retries: number }): ClientMessageForwarder {
  return async (channel) => {
    const provider = channel.bot ? await deps.store.botProviders.findById(channel.bot.providerRowId) : undefined;
    if (!provider) return null;
    return ({ chat, message }) => {
      if (chat.state !== 'bot' || message.author !== 'client') return null;
      return botEventDelivery(
        provider,
        channel,
        chat,
        {
          event: 'CLIENT_MESSAGE',
          message: {
            type: 'TEXT',
            text: message.text ?? message.media.file ?? '',
            timestamp: Math.floor(message.createdAt / 1000),
            ...(message.media.button_id !== undefined ? { button_id: message.media.button_id } : {}),
          },
        },
        deps.retries,
      );
    };
  };
}

/** AGENT_JOINED and CHAT_CLOSED for the bot that saw a chat first, written with the change that causes them. */
export function createBotNotices(deps: { store: Store; retries: number }): BotNotices {
  const noticeFor = async (chat: ChatRecord, event: 'AGENT_JOINED' | 'CHAT_CLOSED') => {
    if (chat.botProviderId === null || (event === 'AGENT_JOINED' && chat.agentJoined)) return null;
    const channel = await deps.store.channels.findById(chat.channelId);
    const provider = channel?.bot ? await deps.store.botProviders.findById(channel.bot.providerRowId) : undefined;
    return channel && provider ? botEventDelivery(provider, channel, chat, { event }, deps.retries) : null;
  };
  return {
    agentJoined: (chat) => noticeFor(chat, 'AGENT_JOINED'),
    chatClosed: (chat) => noticeFor(chat, 'CHAT_CLOSED'),
  };
}
