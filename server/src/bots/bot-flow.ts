import type { Logger } from 'pino';
import type { ConversationService } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import { BOT_DELIVERY, type BotOutbox, type ServiceEventBody } from './bot-outbox.ts';

/**
 * The bot-first conversation (spec 3, 6.1) as domain rules: a client message in a bot's chat goes to the
 * provider; an agent joining or the chat closing is told to it; a CLIENT_MESSAGE that failed every attempt
 * hands the chat to the agents.
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

  events.on('message.created', ({ chat, message }) => {
    if (message.author !== 'client' || chat.state !== 'bot') return;
    guard(
      'CLIENT_MESSAGE',
      (async () => {
        const text = message.text ?? message.media.file ?? '';
        const sent = await tellProvider(chat, {
          event: 'CLIENT_MESSAGE',
          message: {
            type: 'TEXT',
            text,
            timestamp: Math.floor(message.createdAt / 1000),
            ...(message.media.button_id !== undefined ? { button_id: message.media.button_id } : {}),
          },
        });
        // The bot was detached while it held the chat: people take over.
        if (!sent) await conversations.handOverToAgents(chat.id, 'The bot is no longer attached; the conversation went to an agent.');
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

  events.on('chat.updated', ({ chat }) => {
    if (chat.state !== 'closed' || chat.botProviderId === null) return;
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
