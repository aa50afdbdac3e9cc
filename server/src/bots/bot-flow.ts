import type { Logger } from 'pino';
import type { ConversationService } from '../conversations/conversation-service.ts';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { BotLookup } from './bot-lookup.ts';
import { BOT_DELIVERY } from './bot-outbox.ts';

/**
 * The bot-first conversation (spec 3, 6.1) as domain rules: a CLIENT_MESSAGE that failed every attempt
 * hands the chat to the agents, and so does a client message in a chat whose bot was detached. (What the
 * provider must hear is written with each change: see createClientMessageForwarder and createBotNotices.)
 */
export function attachBotFlow(deps: { lookup: BotLookup; events: DomainEvents; conversations: ConversationService; log: Logger }) {
  const { lookup, events, conversations, log } = deps;

  const guard = (what: string, work: Promise<unknown>) => void work.catch((err: unknown) => log.error({ err }, `bot flow: ${what} failed`));

  // CLIENT_MESSAGE itself is written with the message (see createClientMessageForwarder); here only the case
  // of a bot detached while it held the chat: people take over.
  events.on('message.created', ({ chat, message }) => {
    if (message.author !== 'client' || chat.state !== 'bot') return;
    guard(
      'hand-over of a chat whose bot is gone',
      (async () => {
        const channel = await lookup.channel(chat.channelId);
        if (!channel?.bot)
          await conversations.handOverToAgents(chat.id, 'The bot is no longer attached; the conversation went to an agent.');
      })(),
    );
  });

  events.on('delivery.finished', ({ delivery }) => {
    // The kind first: other deliveries' payloads are not read (nor parsed) here.
    if (delivery.kind !== BOT_DELIVERY || delivery.state !== 'failed' || delivery.chatId === null) return;
    if ((delivery.payload as { event?: string }).event !== 'CLIENT_MESSAGE') return;
    guard(
      'hand-over after a failed CLIENT_MESSAGE',
      conversations.handOverToAgents(delivery.chatId, 'The bot did not answer; the conversation went to an agent.'),
    );
  });
}
