import type { ContactInfo, OfflineMessageRequest, VisitorMessageView } from '@svc/protocol';
import type { Callbacks } from '../features/callback-form/callback-state.ts';
import type { Texts } from '../i18n/texts.ts';
import type { Conversation } from '../state/conversation.ts';
import type { Store } from '../state/store.ts';
import type { View, ViewAction } from '../state/view-state.ts';
import type { Outbox } from '../transport/outbox.ts';

/** The newest thing screen readers are told: a message that arrived, or (null) the chat's end; a new id each time. */
export interface Announcement {
  id: number;
  message: VisitorMessageView | null;
}

/** connecting: first connection; online; reconnecting: the connection dropped; unavailable: the widget is gone. */
/** `elsewhere`: refused because the visitor has the chat open in too many other tabs; tried again now and then. */
export type ConnectionState = 'connecting' | 'online' | 'reconnecting' | 'unavailable' | 'elsewhere';

/** What the chat UI reads (stores) and what it can do (actions): built once by start-frame.ts. */
export interface WidgetModel {
  conversation: Store<Conversation>;
  outbox: Store<Outbox>;
  view: Store<View>;
  connection: Store<ConnectionState>;
  /** The header's title (the owner's, else the widget's public name), shown until an agent takes the chat. */
  title: Store<string>;
  /** Read out by the polite live region: one announcement per message that arrives while the visitor is here. */
  announcement: Store<Announcement | null>;
  /** Every word the frame shows, in the visitor's language. */
  texts: Texts;
  /** The visitor scrolled to the top of the log whose first message is `shown`: the page before it, if any. */
  loadOlder(shown: number): void;
  /** Sends a message; `buttonId` when it is the answer of a bot button. */
  send(text: string, buttonId?: string): void;
  /** Uploads a file and sends it (the caption is optional); resolves with an error to show, or null. */
  attach(file: File, caption: string): Promise<string | null>;
  /** Rates the conversation; false when the server refused. */
  rate(rate: 'positive' | 'negative', chatId: number): Promise<boolean>;
  /** The ended chat the visitor rated in this visit: its rating is asked once, whatever the window shows meanwhile. */
  ratedChat: Store<number | null>;
  /** Asks for a person while a bot holds the chat; false when the server refused. */
  requestAgent(): Promise<boolean>;
  /** Ends the visitor's chat (closed as an agent closes it); false when the server refused. */
  endChat(): Promise<boolean>;
  retry(clientMsgId: string): void;
  /** The visitor's draft changed: typing start/stop, and the draft itself when `typingPreview` is on. */
  typing(text: string): void;
  /** Agents see what the visitor types before it is sent (the channel's typing_preview): the composer says so. */
  typingPreview: Store<boolean>;
  act(action: ViewAction): void;
  /** The contacts form (spec 6.3 svc_onIntroduction): resolves once the server took it, or refused it. */
  saveContact(contact: ContactInfo): Promise<boolean>;
  /** The offline form: resolves with the service's reason when it refused the message, or null. */
  sendOffline(message: OfflineMessageRequest): Promise<string | null>;
  /** The visitor's callback: availability, the call in progress, and the request. */
  callback: Pick<Callbacks, 'store' | 'request' | 'dismiss'>;
}
