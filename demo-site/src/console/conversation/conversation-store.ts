import type { AgentServerEvents, ChatView, MessageListView, MessageView } from '@svc/protocol';
import type { ApiClient } from '../api/api-client.ts';
import { errorText } from '../api/api-error.ts';
import { createStore } from '../lib/create-store.ts';
import { applyDelivery, mergeMessages, upsertMessage, type DeliveryUpdate } from './merge-messages.ts';

type TypingEvent = Parameters<AgentServerEvents['typing']>[0];

/** A message to bring into view; a new `at` scrolls to it again. */
export interface MessageFocus {
  messageId: number;
  at: number;
}

export interface ConversationState {
  chatId: number | null;
  chat: ChatView | null;
  messages: readonly MessageView[];
  clientTyping: boolean;
  /** What the client is typing, not yet sent (a widget channel with typing_preview); null when none. */
  clientDraft: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** The `before` of the older page not loaded yet; null when the first message is loaded. */
  older: number | null;
  loadingOlder: boolean;
  /** The message to bring into view (`scrollToMessage`), once it is loaded. */
  focus: MessageFocus | null;
}

/** Messages per page: the newest page opens the conversation, older ones come as the agent scrolls up. */
export const MESSAGES_PER_PAGE = 50;

const idle: ConversationState = {
  chatId: null,
  chat: null,
  messages: [],
  clientTyping: false,
  clientDraft: null,
  status: 'idle',
  error: null,
  older: null,
  loadingOlder: false,
  focus: null,
};

/** Older pages fetched to reach a message to scroll to: the API's largest, so a deep message takes few calls. */
const PAGE_TO_REACH = 200;
/** Pages of missed messages fetched on a reload to keep the loaded history whole: 1,000 messages. */
const CATCH_UP_PAGES = 5;

/**
 * The conversation the agent has open: the chat, its full history, and the client's typing. Live events
 * for other chats are ignored. A history fetched while live events arrive never undoes them: each chat
 * and message remembers the clock tick of its last live change, and a fetch keeps what changed after it began.
 */
export function createConversationStore(deps: { api: ApiClient; typingTimeoutMs?: number }) {
  const state = createStore<ConversationState>(idle);
  const patch = (change: Partial<ConversationState>) => state.update((s) => ({ ...s, ...change }));
  /** A page of older messages put before those loaded from `older` on. */
  const withOlderPage = (page: MessageListView, older: number) => ({
    messages: [...page.messages, ...state.get().messages.filter((m) => m.id >= older)],
    older: page.next,
  });
  const isOpen = (chatId: number) => state.get().chatId === chatId;
  let clock = 0;
  let chatLiveAt = 0;
  const messageLiveAt = new Map<number, number>();
  // Delivery updates for messages the first load does not hold yet; applied when it lands.
  let early: DeliveryUpdate[] = [];
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  let loadSeq = 0;

  /** Resolves when the conversation being opened has loaded, or failed to. */
  const settled = () =>
    new Promise<void>((resolve) => {
      const stop = state.subscribe((s) => {
        if (s.status === 'loading') return;
        stop();
        resolve();
      });
    });

  const stopTyping = () => {
    clearTimeout(typingTimer);
    if (state.get().clientTyping || state.get().clientDraft !== null) patch({ clientTyping: false, clientDraft: null });
  };

  /**
   * The newest page; on a reload (`knownNewest`: the newest message loaded), also the pages before it down to
   * that message, so messages missed while the socket was down join what the agent had scrolled through
   * (at most CATCH_UP_PAGES of them; past that, the older loaded pages are let go).
   */
  async function fetchNewest(chatId: number, knownNewest: number | null): Promise<MessageListView> {
    const newest = await deps.api.listMessages(chatId, MESSAGES_PER_PAGE);
    let { messages, next } = newest;
    for (let i = 0; i < CATCH_UP_PAGES && knownNewest !== null && next !== null && (messages[0]?.id ?? 0) > knownNewest; i++) {
      const older = await deps.api.listMessages(chatId, PAGE_TO_REACH, next);
      messages = [...older.messages, ...messages];
      next = older.next;
    }
    return { messages, next };
  }

  async function load(chatId: number) {
    const seq = ++loadSeq;
    const mark = ++clock;
    try {
      const before = state.get();
      const knownNewest = before.status === 'ready' ? (before.messages.at(-1)?.id ?? null) : null;
      const [chat, page] = await Promise.all([deps.api.getChat(chatId), fetchNewest(chatId, knownNewest)]);
      if (seq !== loadSeq || !isOpen(chatId)) return;
      const current = state.get();
      const oldestFetched = page.messages[0]?.id ?? Infinity;
      // A reload keeps the older pages the agent had scrolled to (and where the next one starts) when they
      // join the newest page without a gap.
      const joins = current.status === 'ready' && page.next !== null && current.messages.some((m) => m.id >= oldestFetched);
      const kept = current.messages.filter((m) => (messageLiveAt.get(m.id) ?? 0) > mark || (joins && m.id < oldestFetched));
      const keptOlder = joins && kept.some((m) => m.id < oldestFetched);
      const merged = early.reduce(applyDelivery, mergeMessages(page.messages, kept));
      early = [];
      patch({
        chat: chatLiveAt > mark && current.chat ? current.chat : chat,
        messages: merged,
        status: 'ready',
        error: null,
        older: keptOlder ? current.older : page.next,
      });
    } catch (err) {
      if (seq === loadSeq && isOpen(chatId)) patch({ status: 'error', error: errorText(err) });
    }
  }

  const store = {
    state,
    currentId: () => state.get().chatId,

    open(chatId: number) {
      stopTyping();
      early = [];
      messageLiveAt.clear();
      state.set({ ...idle, chatId, status: 'loading' });
      void load(chatId);
    },
    /** Refetches the open conversation, e.g. after the socket reconnects. */
    reload() {
      const { chatId } = state.get();
      if (chatId !== null) void load(chatId);
    },
    /** The page before the oldest loaded message, as the agent scrolls up. */
    async loadOlder() {
      const { chatId, older, loadingOlder, status } = state.get();
      if (chatId === null || older === null || loadingOlder || status !== 'ready') return;
      const seq = loadSeq;
      patch({ loadingOlder: true });
      try {
        const page = await deps.api.listMessages(chatId, MESSAGES_PER_PAGE, older);
        if (seq !== loadSeq || !isOpen(chatId)) return;
        patch({ ...withOlderPage(page, older), loadingOlder: false });
      } catch (err) {
        if (seq === loadSeq && isOpen(chatId)) patch({ loadingOlder: false, error: errorText(err) });
      }
    },
    /**
     * Brings a message of the open chat into view and marks it (a search result): older pages are loaded
     * until it is in, if it is older than what is loaded. Asked while the chat is still opening, it waits
     * for the newest page. False when the message is not in this chat.
     */
    async scrollToMessage(messageId: number): Promise<boolean> {
      const { chatId } = state.get();
      if (chatId === null) return false;
      const seq = loadSeq;
      if (state.get().status === 'loading') await settled();
      try {
        for (;;) {
          if (seq !== loadSeq || !isOpen(chatId)) return false;
          const { messages, older } = state.get();
          if (messages.some((m) => m.id === messageId)) break;
          if (older === null || messageId >= older) return false;
          const page = await deps.api.listMessages(chatId, PAGE_TO_REACH, older);
          if (seq !== loadSeq || !isOpen(chatId) || state.get().older !== older) continue;
          patch(withOlderPage(page, older));
        }
      } catch (err) {
        if (seq === loadSeq && isOpen(chatId)) patch({ error: errorText(err) });
        return false;
      }
      patch({ focus: { messageId, at: ++clock } });
      return true;
    },
    leave() {
      stopTyping();
      loadSeq += 1;
      state.set(idle);
    },

    /** A tick to pass as `since` when applying the answer of a request begun now. */
    mark: () => ++clock,
    /** `since`: the chat is the answer to our own request begun then; a live update that came after that
     * is newer (say, the site owner's chat_accepted data) and wins. False when the copy was not applied. */
    applyChat(chat: ChatView, options: { since?: number } = {}): boolean {
      if (!isOpen(chat.id)) return false;
      if (options.since !== undefined && chatLiveAt > options.since) return false;
      chatLiveAt = ++clock;
      patch({ chat });
      return true;
    },
    /** `ifAbsent`: a copy that may be older than what events already brought (the answer to our own POST). */
    applyMessage(message: MessageView, options: { ifAbsent?: boolean } = {}) {
      if (!isOpen(message.chat_id)) return;
      const { messages } = state.get();
      if (options.ifAbsent && messages.some((m) => m.id === message.id)) return;
      if (message.author === 'client') stopTyping();
      messageLiveAt.set(message.id, ++clock);
      patch({ messages: upsertMessage(messages, message) });
    },
    applyDelivery(update: DeliveryUpdate) {
      if (!isOpen(update.chat_id)) return;
      const { messages, status } = state.get();
      const next = applyDelivery(messages, update);
      messageLiveAt.set(update.message_id, ++clock);
      if (next !== messages) patch({ messages: next });
      else if (status === 'loading') early.push(update);
    },
    applyTyping(event: TypingEvent) {
      if (!isOpen(event.chat_id) || event.author !== 'client') return;
      if (event.state === 'stop') return stopTyping();
      clearTimeout(typingTimer);
      // A lost typeout must not leave the indicator on for ever.
      typingTimer = setTimeout(stopTyping, deps.typingTimeoutMs ?? 15_000);
      patch(event.text === undefined ? { clientTyping: true } : { clientTyping: true, clientDraft: event.text || null });
    },

    /** Sends a failed agent message again; it shows as pending at once, the socket brings the outcome. */
    async resend(messageId: number) {
      const { chatId } = state.get();
      if (chatId === null) return;
      store.applyDelivery({ chat_id: chatId, message_id: messageId, delivery: 'pending' });
      try {
        await deps.api.resendMessage(chatId, messageId);
      } catch (err) {
        patch({ error: errorText(err) });
        store.reload();
      }
    },

    dispose() {
      clearTimeout(typingTimer);
      loadSeq += 1;
    },
  };
  return store;
}
export type ConversationStore = ReturnType<typeof createConversationStore>;
