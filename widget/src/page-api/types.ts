import type {
  CallbackAvailability,
  ContactInfo,
  CustomDataField,
  PageEventName,
  PageEvents,
  StartCallResult,
  TriggerRules,
  WidgetState,
} from '@svc/protocol';

export type { WidgetState } from '@svc/protocol';

/** spec 3 / 4.4 chatMode: online while an agent of the channel is online. */
export type ChatMode = 'online' | 'offline';

export interface OpenOptions {
  /** 'call' opens the callback form with a phone field (spec 4.4 open). */
  start?: 'chat' | 'call';
}

/** spec 2.3 contact_info: what getContactInfo returns. */
export interface ContactInfoResult {
  name: string;
  phone?: string;
  email?: string;
}

export const CUSTOM_DATA_NOT_ARRAY = 'Custom data must be array.';

/** spec 4.4 / 7: the results of setCustomData. */
export type CustomDataResult = { result: 'ok' } | { result: 'fail'; reason: typeof CUSTOM_DATA_NOT_ARRAY };

/** spec 4.4: the results of setUserToken; a rejected token is echoed back, or false when it was not a string. */
export type UserTokenResult = { result: 'ok'; token: string } | { result: 'fail'; token: string | false };

/** spec 4.4 getVisitorNumber: called once with the number, or with an error and null. */
export type VisitorNumberCallback = (err: Error | null, visitorNumber: number | null) => void;

/**
 * The svc_api object of spec 4.4. This interface is the one
 * typed map of the page API: the loader installs an object of this type, and the demo shop and tests call it.
 */
export interface SvcApi {
  open(options?: OpenOptions): void;
  close(): void;
  chatMode(): ChatMode;
  getContactInfo(): ContactInfoResult;
  getVisitorNumber(callback: VisitorNumberCallback): void;
  setContactInfo(info: ContactInfo): void;
  setCustomData(fields: CustomDataField[]): CustomDataResult;
  /** With `{signature}` from the site's server when the channel verifies visitors (docs/widget.md). */
  setUserToken(token: string, options?: { signature?: string }): UserTokenResult;
  sendOfflineMessage(message: OfflineMessage): OfflineMessageResult;
  /** Replaces the channel's trigger rules on this page (protocol/src/triggers.ts). */
  setRules(rules: TriggerRules): void;
  /** Opens the chat with this text as an invitation from the team; the agent sees it as context. */
  showProactiveInvitation(invitationText: string, departmentId?: number): void;
  /** Asks for a callback to this number: ok when the number looks right and calls are available now. */
  startCall(phone: string): StartCallResult;
  isCallbackEnabled(callback: (result: CallbackAvailability) => void): void;
  /** Listens to a page event (protocol/src/page-events.ts); answers the function that stops listening. */
  on<K extends PageEventName>(event: K, listener: (data: PageEvents[K]) => void): () => void;
}

/** spec 4.4 sendOfflineMessage: all strings; the message and an e-mail or phone are needed. */
export interface OfflineMessage {
  name?: string;
  email?: string;
  phone?: string;
  description?: string;
  message: string;
}

/** spec 4.4: ok when the parameters are correct, else the reason. */
export type OfflineMessageResult = { result: 'ok' } | { result: 'fail'; error: string };

/** spec 6.3: the page-level functions the widget calls. */
export interface PageCallbacks {
  svc_onLoadCallback(): void;
  svc_onOpen(): void;
  svc_onClose(): void;
  svc_onMessageSent(): void;
  svc_onAccept(): void;
  svc_onIntroduction(): void;
  svc_onResizeCallback(): void;
  svc_onChangeState(state: WidgetState): void;
  /** The visitor's callback request was taken: a call starts. */
  svc_onCallStart(): void;
  svc_onCallEnd(result: CallEndResult): void;
}

/** spec 6.3 svc_onCallEnd: how the call ended. */
export type CallEndResult = { result: 'ok' } | { result: 'fail'; reason: string };

export type CallbackName = keyof PageCallbacks;
