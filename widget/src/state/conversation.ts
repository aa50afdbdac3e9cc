import type { ContactInfo, VisitorMessageView, WidgetSession } from '@svc/protocol';
import type { ChatMode } from '../page-api/types.ts';

export interface AgentView {
  name: string;
  photo: string | null;
}

/** The visitor's conversation as the server told it, merged from the session and the live events. */
export interface Conversation {
  status: ChatMode;
  visitorNumber: number | null;
  contact: ContactInfo;
  /** A chat goes on: it has messages and was not closed. */
  live: boolean;
  /** The id of the chat the last session named, until it is closed. */
  chatId: number | null;
  /** The agent who holds the chat, once one has taken it. */
  agent: AgentView | null;
  /** Every message shown, unique by id, in id order. */
  messages: VisitorMessageView[];
  /** The chat has messages older than the first one shown (`messages:older` fetches them). */
  older: boolean;
  /** The id of the last message of a chat an agent closed during this visit; a divider follows it. */
  endedAfter: number | null;
  /** Who is typing on the agents' side (a name), or null. */
  typing: string | null;
  /** An invitation the page or a trigger showed (spec 4.4 showProactiveInvitation), until the chat ends. */
  invitation: string | null;
}

export type ConversationEvent =
  | { type: 'session'; session: WidgetSession }
  | { type: 'message'; message: VisitorMessageView }
  /** Messages of the chat fetched as the visitor scrolled up (`older` set) or to fill what a reconnect skipped. */
  | { type: 'history'; messages: VisitorMessageView[]; older?: boolean }
  | { type: 'accepted'; agent: AgentView }
  | { type: 'closed' }
  | { type: 'status'; status: ChatMode }
  | { type: 'typing'; name: string | null }
  | { type: 'contact'; contact: ContactInfo }
  | { type: 'invitation'; text: string };

export const emptyConversation: Conversation = {
  status: 'offline',
  visitorNumber: null,
  contact: {},
  live: false,
  chatId: null,
  agent: null,
  messages: [],
  older: false,
  endedAfter: null,
  typing: null,
  invitation: null,
};

/** Adds a message unless one with its id is there (the ack and the echo of one message both arrive). */
export function withMessage(messages: VisitorMessageView[], message: VisitorMessageView): VisitorMessageView[] {
  if (messages.some((m) => m.id === message.id)) return messages;
  return [...messages, message].sort((a, b) => a.id - b.id);
}

/** The conversation after one server event. Pure: the widget's stores call it, the unit tests too. */
export function reduceConversation(state: Conversation, event: ConversationEvent): Conversation {
  switch (event.type) {
    case 'session': {
      const { session } = event;
      // Another visitor than the one shown: ours was erased and the old token found no one. Nothing of before stays.
      if (state.visitorNumber !== null && session.visitor_number !== state.visitorNumber) state = emptyConversation;
      const chat = session.chat;
      // The chat we knew was closed (or replaced) while we were away: what we show of it ends here.
      const ended = state.chatId !== null && chat?.id !== state.chatId;
      return {
        ...state,
        status: session.status,
        visitorNumber: session.visitor_number,
        contact: session.contact,
        live: !!chat && chat.state !== 'closed',
        chatId: chat?.id ?? null,
        agent: chat?.agent ?? null,
        // A session after a reconnect carries the live chat's history: what came meanwhile is in it.
        messages: (chat?.messages ?? []).reduce(withMessage, state.messages),
        // Known when this session first shows the chat; afterwards the pages fetched tell.
        older: chat?.id === state.chatId && state.messages.length > 0 ? state.older : !!chat?.older,
        endedAfter: ended ? (state.messages.at(-1)?.id ?? null) : state.endedAfter,
        typing: null,
      };
    }
    case 'history':
      return { ...state, messages: event.messages.reduce(withMessage, state.messages), older: event.older ?? state.older };
    case 'message': {
      const { message } = event;
      const agent = message.author === 'agent' && message.agent ? message.agent : state.agent;
      return {
        ...state,
        messages: withMessage(state.messages, message),
        live: true,
        // The visitor's first message starts the chat: from then on a reconnect's session is known to be of it.
        chatId: state.chatId ?? message.chat_id,
        agent,
        typing: message.author === 'visitor' ? state.typing : null,
      };
    }
    case 'accepted':
      return { ...state, agent: event.agent };
    case 'closed':
      return {
        ...state,
        live: false,
        chatId: null,
        agent: null,
        typing: null,
        invitation: null,
        endedAfter: state.messages.at(-1)?.id ?? null,
      };
    case 'status':
      return { ...state, status: event.status };
    case 'typing':
      return { ...state, typing: event.name };
    case 'contact':
      return { ...state, contact: { ...state.contact, ...event.contact } };
    case 'invitation':
      return { ...state, invitation: event.text };
  }
}
