import type { BotEventClient, ServiceEvent } from '@svc/protocol';
import type { BotNotices, ClientMessageForwarder } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import { newEventId } from '../lib/random-id.ts';
import type { AgentRecord, BotProviderRecord, ChannelRecord, ChatRecord, NewDelivery } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { BotLookup } from './bot-lookup.ts';

export const BOT_DELIVERY = 'bot';

/** An event without the fields the outbox fills in. */
export type ServiceEventBody = ServiceEvent extends infer T
  ? T extends ServiceEvent
    ? Omit<T, 'id' | 'client_id' | 'chat_id' | 'site_id' | 'agents_online' | 'channel' | 'sender'>
    : never
  : never;

/** What an event says beside its body: read before the unit of work that writes it (the outbox row is built
 * synchronously inside it). `agent`: the one who joins, for AGENT_JOINED. */
export interface BotEventFacts {
  agentsOnline: boolean;
  agent?: AgentRecord;
}

const agentsOnline = async (store: Store, channel: ChannelRecord) => (await store.channels.status(channel.id)) === 1;

function clientSender(chat: ChatRecord): BotEventClient {
  const { client } = chat;
  return { id: client.externalKey, name: client.name, url: client.url, has_contacts: !!(client.email || client.phone) };
}

/** The outbox row of one service-to-provider event (spec 6.1); one chat's events go in order. */
export function botEventDelivery(
  provider: BotProviderRecord,
  channel: ChannelRecord,
  chat: ChatRecord,
  event: ServiceEventBody,
  facts: BotEventFacts,
  retries: number,
): NewDelivery {
  // The event id is the delivery's: the same on every retry, so a provider can de-duplicate.
  const eventId = newEventId();
  const sender =
    event.event === 'AGENT_JOINED' && facts.agent ? { id: String(facts.agent.id), name: facts.agent.name } : clientSender(chat);
  const payload = {
    ...event,
    id: eventId,
    site_id: channel.publicId,
    client_id: chat.client.externalKey,
    chat_id: String(chat.id),
    agents_online: facts.agentsOnline,
    sender,
    channel: { id: channel.publicId, type: channel.kind },
  } as ServiceEvent;
  return {
    kind: BOT_DELIVERY,
    channelId: channel.id,
    url: `${provider.endpoint}/${encodeURIComponent(channel.bot!.token)}`,
    payload,
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
      const facts = { agentsOnline: await agentsOnline(store, channel) };
      await store.deliveries.enqueue({
        ...botEventDelivery(provider, channel, chat, event, facts, deps.retries),
        chatId: chat.id,
        messageId: null,
      });
      events.emit('delivery.enqueued');
    },
  };
}
export type BotOutbox = ReturnType<typeof createBotOutbox>;

/** Every client message of a chat the bot holds goes to it as CLIENT_MESSAGE, written with the message. */
export function createClientMessageForwarder(deps: { store: Store; lookup: BotLookup; retries: number }): ClientMessageForwarder {
  return async (channel) => {
    const provider = await deps.lookup.providerOf(channel);
    if (!provider) return null;
    const facts = { agentsOnline: await agentsOnline(deps.store, channel) };
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
        facts,
        deps.retries,
      );
    };
  };
}

/** AGENT_JOINED and CHAT_CLOSED for the bot that saw a chat first, written with the change that causes them. */
export function createBotNotices(deps: { store: Store; lookup: BotLookup; retries: number }): BotNotices {
  const noticeFor = async (chat: ChatRecord, event: 'AGENT_JOINED' | 'CHAT_CLOSED', agent?: AgentRecord) => {
    if (chat.botProviderId === null || (event === 'AGENT_JOINED' && chat.agentJoined)) return null;
    const channel = await deps.lookup.channel(chat.channelId);
    const provider = channel && (await deps.lookup.providerOf(channel));
    if (!channel || !provider) return null;
    const facts = { agentsOnline: await agentsOnline(deps.store, channel), agent };
    return botEventDelivery(provider, channel, chat, { event }, facts, deps.retries);
  };
  return {
    agentJoined: (chat, agent) => noticeFor(chat, 'AGENT_JOINED', agent),
    chatClosed: (chat) => noticeFor(chat, 'CHAT_CLOSED'),
  };
}
