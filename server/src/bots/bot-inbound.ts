import type { BotMessage, ProviderEvent } from '@svc/protocol';
import type { ConversationService } from '../conversations/conversation-service.ts';
import { invalidRequest } from '../http/errors.ts';
import type { BotProviderRecord, ChannelRecord, ChatRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { BotOutbox } from './bot-outbox.ts';

/** A blank fallback is no fallback: channels that cannot show the rich message get nothing rather than ''. */
const fallback = (text: string | undefined) => (text?.trim() ? text : null);

/** A bot message as stored: TEXT as text, MARKDOWN and BUTTONS as rich types with their text fallback. */
export function storedBotMessage(m: BotMessage) {
  switch (m.type) {
    case 'TEXT':
      return { type: 'text' as const, text: m.text, media: {} };
    case 'MARKDOWN':
      return { type: 'markdown' as const, text: fallback(m.text), media: { content: m.content } };
    case 'BUTTONS':
      return {
        type: 'buttons' as const,
        text: fallback(m.text),
        media: { title: m.title, buttons: m.buttons.map((b) => (b.id === undefined ? { text: b.text } : { text: b.text, id: b.id })) },
      };
  }
}

/**
 * What a provider sends (spec 6.1), whether posted to `{bot_url}/webhooks/...` or answered in-line to a
 * CLIENT_MESSAGE: BOT_MESSAGE goes to the client, INVITE_AGENT hands the chat to the agents when one is
 * online and answers AGENT_UNAVAILABLE otherwise. Every event is logged for the chat.
 */
export function createBotInbound(deps: { store: Store; conversations: ConversationService; outbox: BotOutbox }) {
  const { store, conversations, outbox } = deps;

  async function chatOf(channel: ChannelRecord, chatId: string): Promise<ChatRecord> {
    const id = /^\d+$/.test(chatId) ? Number(chatId) : NaN;
    const chat = Number.isSafeInteger(id) ? await store.chats.findById(id) : undefined;
    if (!chat || chat.channelId !== channel.id) throw invalidRequest(`chat_id: no chat ${chatId} on this bot's channel`);
    if (chat.state === 'closed') throw invalidRequest(`chat_id: chat ${chatId} is closed`);
    return chat;
  }

  return {
    async process(provider: BotProviderRecord, channel: ChannelRecord, event: ProviderEvent, source: 'webhook' | 'inline'): Promise<void> {
      const log = (chatId: number | null, status: number, error: string | null) =>
        store.botEvents.log({
          providerId: provider.id,
          chatId,
          event: source === 'inline' ? `${event.event} (in-line answer)` : event.event,
          body: event,
          status,
          error,
        });
      let chat: ChatRecord;
      try {
        chat = await chatOf(channel, event.chat_id);
      } catch (err) {
        const id = Number(event.chat_id);
        await log(Number.isSafeInteger(id) && (await store.chats.findById(id)) ? id : null, 400, (err as Error).message);
        throw err;
      }
      if (event.event === 'BOT_MESSAGE') {
        const post = () => conversations.postBotMessage(chat, { name: provider.name }, storedBotMessage(event.message));
        // In-line, the line of the log and the bot's message go in the same group commit, not one after the other.
        // Posted to the webhook route, the line goes first: a failed one answers an error before anything is
        // stored, so the provider's retry does not store the message twice.
        if (source === 'inline') await Promise.all([log(chat.id, 200, null), post()]);
        else {
          await log(chat.id, 200, null);
          await post();
        }
        return;
      }
      await log(chat.id, 200, null);
      if (chat.state !== 'bot') return;
      if ((await store.channels.status(channel.id)) === 1) {
        await conversations.handOverToAgents(chat.id, 'The bot passed the conversation to an agent.');
      } else {
        await outbox.send(provider, channel, chat, { event: 'AGENT_UNAVAILABLE' });
      }
    },
  };
}
export type BotInbound = ReturnType<typeof createBotInbound>;
