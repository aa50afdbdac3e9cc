import type { AgentMessageRequest, MediaFields, MessageType } from '@svc/protocol';
import { forbidden, invalidRequest, notFound } from '../http/errors.ts';
import { ClientBlocked, type NewClientMessage } from '../store/chats.ts';
import { enqueuedRow, type EnqueuedRow } from '../store/deliveries.ts';
import type { AgentRecord, ChannelRecord, ChatRecord, ClientProfile, MessageRecord, NewDelivery } from '../store/records.ts';
import type { Store } from '../store/store.ts';
import type { ChannelOutbounds } from './channel-outbound.ts';
import type { DomainEvents } from './domain-events.ts';

export interface ClientRef {
  /** String form: 42 and "42" are one customer. */
  key: string;
  /** As the channel sent it, returned unchanged in what goes out. */
  id: string | number;
  profile: ClientProfile;
}

export interface ClientMessage {
  type: MessageType;
  text: string | null;
  media: MediaFields;
  externalId: string | null;
}

/**
 * The domain core every channel goes through (spec 1.1): a message from any channel finds or opens the
 * client's chat, is stored, and reaches the channel's agents the same way.
 */
/** What the bot that saw a chat first must hear when an agent joins or the chat closes (spec 6.1), as
 * deliveries written with the change. Given by the bots feature; null when the chat has no bot. */
export interface BotNotices {
  agentJoined(chat: ChatRecord, agent: AgentRecord): Promise<NewDelivery | null>;
  chatClosed(chat: ChatRecord): Promise<NewDelivery | null>;
}

/** What the site owner's server must hear when a chat closes (spec 6.2 chat_finished), as a delivery written
 * with the close. Given by the webhooks feature; null when the channel does not want it. `closing` is the chat as
 * the close leaves it. */
export interface WebhookNotices {
  chatFinished(closing: ChatRecord): Promise<NewDelivery | null>;
}

/** Forwards a client message of a bot-held chat to the bot, as a delivery written with the message. Given
 * by the bots feature at start-up; null when the channel has no bot. */
export type ClientMessageForwarder = (channel: ChannelRecord) => Promise<NewClientMessage['forward'] | null>;

export function createConversationService(deps: {
  store: Store;
  events: DomainEvents;
  /** Where a chat's channel is read: the channel lookup cache (the store when not given). */
  channels?: { byId(channelId: number): Promise<ChannelRecord | undefined> };
  outbounds: ChannelOutbounds;
  forwarder?: ClientMessageForwarder;
  botNotices?: BotNotices;
  webhookNotices?: WebhookNotices;
}) {
  const { store, events, outbounds } = deps;

  async function chatForAgent(agent: AgentRecord, chatId: number): Promise<ChatRecord> {
    const chat = await store.chats.findForAgent(chatId, agent.id);
    if (!chat) throw notFound('No such chat');
    return chat;
  }

  async function channelOf(chat: ChatRecord): Promise<ChannelRecord> {
    const channel = await (deps.channels ? deps.channels.byId(chat.channelId) : store.channels.findById(chat.channelId));
    if (!channel) throw notFound('No such chat');
    return channel;
  }

  /** What a close sends, written with it: the bot's CHAT_CLOSED and the site owner's chat_finished. */
  async function closeNotices(chat: ChatRecord, blacklist: boolean): Promise<NewDelivery[]> {
    const closing: ChatRecord = { ...chat, state: 'closed', blacklisted: blacklist, closedAt: Date.now() };
    const notices = await Promise.all([deps.botNotices?.chatClosed(chat), deps.webhookNotices?.chatFinished(closing)]);
    return notices.filter((notice) => notice != null);
  }

  /** One close for every side: the bot's CHAT_CLOSED and the site owner's chat_finished written with it (a
   * shutdown right after the close loses neither), then chat.closed (sockets, transcripts). */
  async function closeChat(chat: ChatRecord, blacklist: boolean): Promise<ChatRecord> {
    if (chat.state === 'closed') return chat;
    const notices = await closeNotices(chat, blacklist);
    const closedNow = await store.chats.close(chat.id, blacklist, notices);
    if (closedNow && notices.length) events.emit('delivery.enqueued');
    const closed = (await publishChat(chat.id))!;
    // A close that lost a race with another one has nothing new to tell.
    if (closedNow) events.emit('chat.closed', { chat: closed });
    return closed;
  }

  async function publishChat(chatId: number) {
    const chat = await store.chats.findById(chatId);
    if (chat) events.emit('chat.updated', { chat });
    return chat;
  }

  return {
    chatForAgent,

    async receiveClientMessage(channel: ChannelRecord, client: ClientRef, message: ClientMessage, idempotencyKey?: string) {
      const input: NewClientMessage = {
        channelId: channel.id,
        client,
        botProviderRowId: channel.bot?.providerRowId ?? null,
        message,
        idempotencyKey,
        forward: (await deps.forwarder?.(channel)) ?? undefined,
      };
      const result = await store.chats.appendClientMessage(input).catch((err: unknown) => {
        throw err instanceof ClientBlocked ? forbidden(err.message) : err;
      });
      if (result.replayed) return { chatId: result.chatId, messageId: result.messageId };
      if (result.forwarded) events.emit('delivery.enqueued');
      events.emit('message.created', { chat: result.chat, message: result.message });
      events.emit('chat.updated', { chat: result.chat });
      return { chatId: result.chat.id, messageId: result.message.id };
    },

    /** Typing from the customer's side; shown only when the client has a live chat. */
    async receiveClientTyping(channel: ChannelRecord, client: ClientRef, state: 'start' | 'stop', draft?: string) {
      const { changed, liveChatId } = await store.chats.updateClientProfile(channel.id, client);
      if (liveChatId === null) return;
      if (changed) await publishChat(liveChatId);
      events.emit('typing', {
        chatId: liveChatId,
        channelId: channel.id,
        author: 'client',
        state,
        ...(draft !== undefined ? { text: draft } : {}),
      });
    },

    /** `chat` as `chatForAgent` answered it for this agent, a moment before. */
    async sendAgentMessage(agent: AgentRecord, chat: ChatRecord, request: AgentMessageRequest): Promise<MessageRecord> {
      const chatId = chat.id;
      if (chat.state === 'closed') throw invalidRequest('The chat is closed');
      const channel = await channelOf(chat);
      const { type, text, ...media } = request as { type: MessageType; text?: string } & MediaFields;
      const outbound = outbounds[channel.kind];
      const joined = chat.assignedAgentId === null ? ((await deps.botNotices?.agentJoined(chat, agent)) ?? null) : null;
      let enqueued: EnqueuedRow | undefined;
      const result = await store.chats.appendAgentMessage({
        chatId,
        agentId: agent.id,
        agentName: agent.name,
        joined,
        message: { type, text: text ?? null, media },
        delivery: (messageId) => {
          const delivery = outbound.messageDelivery({
            channel,
            chat,
            sender: { name: agent.name, photo: agent.photo },
            message: { id: messageId, type, text: text ?? null, media },
          });
          if (delivery !== null && !('notSent' in delivery)) enqueued = enqueuedRow({ ...delivery, chatId, messageId });
          return delivery;
        },
      });
      events.emit('message.created', { chat: result.chat, message: result.message, agent });
      events.emit('chat.updated', { chat: result.chat });
      if (chat.assignedAgentId === null && result.chat.assignedAgentId === agent.id)
        events.emit('chat.accepted', { chat: result.chat, agent });
      // With its key, the message joins the run of its chat a worker may be sending: no claim, no look (issue 16).
      if (joined) events.emit('delivery.enqueued');
      else if (result.message.delivery === 'pending') events.emit('delivery.enqueued', enqueued);
      return result.message;
    },

    /** Puts a failed agent message back into the outbox, as it was first sent. */
    async resendFailedMessage(agent: AgentRecord, chatId: number, messageId: number): Promise<MessageRecord> {
      const chat = await chatForAgent(agent, chatId);
      const message = await store.messages.findById(messageId);
      if (!message || message.chatId !== chat.id) throw notFound('No such message');
      if (message.author !== 'agent' || message.delivery !== 'failed')
        throw invalidRequest('Only a failed agent message can be sent again');
      if (!(await store.deliveries.requeueFailedMessage(messageId)))
        throw invalidRequest('This message has no failed delivery to send again');
      events.emit('delivery.enqueued');
      const pending = (await store.messages.findById(messageId))!;
      events.emit('message.delivery', { chatId, channelId: chat.channelId, messageId, delivery: 'pending', error: null });
      return pending;
    },

    async agentTyping(agent: AgentRecord, chatId: number, state: 'start' | 'stop') {
      const chat = await chatForAgent(agent, chatId);
      if (chat.state === 'closed') throw invalidRequest('The chat is closed');
      const channel = await channelOf(chat);
      const delivery = outbounds[channel.kind].typingDelivery({ channel, chat, agent, state });
      if (delivery) {
        await store.deliveries.enqueue({ ...delivery, chatId: chat.id, messageId: null });
        events.emit('delivery.enqueued');
      }
      events.emit('typing', { chatId, channelId: chat.channelId, author: 'agent', agentId: agent.id, state });
    },

    /**
     * A message from the chat's bot (spec 2.2, 6.1 BOT_MESSAGE): stored, shown to agents, and carried to the
     * client on whatever channel the chat is on.
     */
    async postBotMessage(chat: ChatRecord, bot: { name: string }, message: { type: MessageType; text: string | null; media: MediaFields }) {
      const channel = await channelOf(chat);
      const result = await store.chats.appendAgentMessage({
        chatId: chat.id,
        agentId: null,
        author: 'bot',
        message,
        delivery: (messageId) =>
          outbounds[channel.kind].messageDelivery({
            channel,
            chat,
            sender: { name: bot.name, photo: null },
            message: { id: messageId, ...message },
          }),
      });
      events.emit('message.created', { chat: result.chat, message: result.message });
      events.emit('chat.updated', { chat: result.chat });
      if (result.message.delivery === 'pending') events.emit('delivery.enqueued');
      return result.message;
    },

    /** Takes a chat from its bot into the agents' queue, saying why in the conversation. False when the bot
     * did not hold it. */
    async handOverToAgents(chatId: number, reason: string): Promise<boolean> {
      const result = await store.chats.handOver(chatId, reason);
      if (!result) return false;
      events.emit('message.created', { chat: result.chat, message: result.message });
      events.emit('chat.updated', { chat: result.chat });
      events.emit('chat.handed-over', { chat: result.chat });
      return true;
    },

    /** The spec's Reply: the agent takes the chat. */
    async accept(agent: AgentRecord, chatId: number): Promise<ChatRecord> {
      const chat = await chatForAgent(agent, chatId);
      if (chat.state === 'closed') throw invalidRequest('The chat is closed');
      if (chat.assignedAgentId === agent.id && chat.state === 'open') return chat;
      const joined = (await deps.botNotices?.agentJoined(chat, agent)) ?? null;
      await store.chats.assign(chatId, agent.id, joined);
      if (joined) events.emit('delivery.enqueued');
      const accepted = (await publishChat(chatId))!;
      events.emit('chat.accepted', { chat: accepted, agent });
      return accepted;
    },

    /** Lets the client of a chat write again after a blacklist. */
    async unblock(agent: AgentRecord, chatId: number): Promise<ChatRecord> {
      await chatForAgent(agent, chatId);
      await store.chats.unblockClient(chatId);
      return (await publishChat(chatId))!;
    },

    async close(agent: AgentRecord, chatId: number, blacklist: boolean): Promise<ChatRecord> {
      return closeChat(await chatForAgent(agent, chatId), blacklist);
    },

    /**
     * The service ends a chat nobody wrote in since `idleSince` (the channel's auto_close_minutes), exactly as an
     * agent's close does, with a system message saying why. False when the chat was closed or written in
     * meanwhile (by another node's sweep too): then nothing is announced.
     */
    async closeIdle(chatId: number, idleSince: number, note: string): Promise<boolean> {
      const chat = await store.chats.findById(chatId);
      if (!chat || chat.state === 'closed') return false;
      const notices = await closeNotices(chat, false);
      const result = await store.chats.closeIdle(chatId, idleSince, note, notices);
      if (!result) return false;
      if (notices.length) events.emit('delivery.enqueued');
      events.emit('message.created', { chat: result.chat, message: result.message });
      events.emit('chat.updated', { chat: result.chat });
      events.emit('chat.closed', { chat: result.chat });
      return true;
    },

    /** The client ends their own chat (the widget's End chat): closed exactly as an agent closes it. */
    async endByClient(chatId: number): Promise<ChatRecord> {
      const chat = await store.chats.findById(chatId);
      if (!chat) throw notFound('No such chat');
      return closeChat(chat, false);
    },
  };
}
export type ConversationService = ReturnType<typeof createConversationService>;
