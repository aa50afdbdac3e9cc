import type { Logger } from 'pino';
import type { ConversationService } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { BOT_DELIVERY, type BotOutbox, type ServiceEventBody } from './bot-outbox.ts';

/**
 * The bot-first conversation (spec 3, 6.1) as domain rules: an agent joining or the chat closing is told to
 * the provider; a CLIENT_MESSAGE that failed every attempt hands the chat to the agents.
 */
export function attachBotFlow(deps: {
  store: Store;
  events: DomainEvents;
  conversations: ConversationService;
  outbox: BotOutbox;
  log: Logger;
}) {
  const { store, events, conversations, outbox, log } = deps;

  async function tellProvider(chat: ChatRecord, event: ServiceEventBody) {
    const channel = await store.channels.findById(chat.channelId);
    const provider = channel?.bot ? await store.botProviders.findById(channel.bot.providerRowId) : undefined;
    if (channel && provider) await outbox.send(provider, channel, chat, event);
    return Boolean(channel && provider);
  }

  const guard = (what: string, work: Promise<unknown>) => void work.catch((err: unknown) => log.error({ err }, `bot flow: ${what} failed`));

  // CLIENT_MESSAGE itself is written with the message (see createClientMessageForwarder); here only the case
  // of a bot detached while it held the chat: people take over.
  events.on('message.created', ({ chat, message }) => {
    if (message.author !== 'client' || chat.state !== 'bot') return;
    guard(
      'hand-over of a chat whose bot is gone',
      (async () => {
        const channel = await store.channels.findById(chat.channelId);
        if (!channel?.bot)
          await conversations.handOverToAgents(chat.id, 'The bot is no longer attached; the conversation went to an agent.');
      })(),
    );
  });

  events.on('chat.accepted', ({ chat }) => {
    if (chat.botProviderId === null) return;
    guard(
      'AGENT_JOINED',
      (async () => {
        if (await store.chats.markAgentJoined(chat.id)) await tellProvider(chat, { event: 'AGENT_JOINED' });
      })(),
    );
  });

  events.on('chat.closed', ({ chat }) => {
    if (chat.botProviderId === null) return;
    guard('CHAT_CLOSED', tellProvider(chat, { event: 'CHAT_CLOSED' }));
  });

  events.on('delivery.finished', ({ delivery }) => {
    const event = (delivery.payload as { event?: string }).event;
    if (delivery.kind !== BOT_DELIVERY || delivery.state !== 'failed' || event !== 'CLIENT_MESSAGE' || delivery.chatId === null) return;
    guard(
      'hand-over after a failed CLIENT_MESSAGE',
      conversations.handOverToAgents(delivery.chatId, 'The bot did not answer; the conversation went to an agent.'),
    );
  });
}
