/**
 * The page API (spec 4.4 svc_api, 6.3 svc_ callbacks, svc_api.on events): the types page authors get as
 * `/widget/svc-api.d.ts` and in the `@svc/widget-loader` package, both generated from this file and
 * page-globals.ts. Plain types, no zod: the `.d.ts` must need nothing installed. Where a schema checks the same
 * shape, protocol/test/page-api.test.ts holds the two equal.
 */
import type { CallbackAvailability, StartCallResult } from './calls.ts';
import type { PageEventName, PageEvents, WidgetState } from './page-events.ts';

export type { CallbackAvailability, StartCallResult } from './calls.ts';
export type { PageEventName, PageEvents, WidgetState } from './page-events.ts';

/** spec 3 / 4.4 chatMode: online while an agent of the channel is online. */
export type ChatMode = 'online' | 'offline';

/** svc_api.open's options. */
export interface OpenOptions {
  /** 'call' opens the callback form with a phone field (spec 4.4 open). */
  start?: 'chat' | 'call';
}

/** spec 4.4 setContactInfo: the visitor's contact data, every field a string and optional. */
export interface ContactInfo {
  name?: string;
  email?: string;
  phone?: string;
  description?: string;
}

/** spec 2.3 contact_info: what getContactInfo returns. */
export interface ContactInfoResult {
  name: string;
  phone?: string;
  email?: string;
}

/** spec 2.3 field: one line of the agent's right-hand panel; `link` makes the content a link (safe domains only). */
export interface CustomDataField {
  title?: string;
  content?: string;
  link?: string;
  key?: string;
}

/** spec 4.4 / 7: the results of setCustomData. */
export type CustomDataResult = { result: 'ok' } | { result: 'fail'; reason: 'Custom data must be array.' };

/** spec 4.4: the results of setUserToken; a rejected token is echoed back, or false when it was not a string. */
export type UserTokenResult = { result: 'ok'; token: string } | { result: 'fail'; token: string | false };

/** spec 4.4 getVisitorNumber: called once with the number, or with an error and null. */
export type VisitorNumberCallback = (err: Error | null, visitorNumber: number | null) => void;

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

/** spec 6.3 svc_onCallEnd: how the call ended. */
export type CallEndResult = { result: 'ok' } | { result: 'fail'; reason: string };

/** When a trigger rule fires; every condition given must hold. */
export interface TriggerConditions {
  /** Seconds the visitor has spent on the current page (0 to 86400). */
  time_on_page?: number;
  /** The page URL matches one of these `*` wildcard patterns, case-insensitively: `*\/pricing*`. */
  page_url?: string[];
  /** The page URL matches none of these patterns. */
  page_url_not?: string[];
  /** The visitor's visits to the site, this one counted (a new visit after 30 minutes without a page view). */
  visit_count?: { min?: number; max?: number };
  /** The referrer matches one of these patterns; `""` matches a visit with no referrer. */
  referrer?: string[];
  /** Every listed UTM parameter of the page URL equals the value given (case-insensitive). */
  utm?: { source?: string; medium?: string; campaign?: string; content?: string; term?: string };
  /** Only while agents are online, or only while none is. */
  chat_mode?: 'online' | 'offline';
}

/** What a fired rule does: open the chat with an invitation from the team, or only open it. */
export type TriggerAction = { type: 'invite'; text: string; department_id?: number } | { type: 'open' };

/** One proactive-chat rule, as the admin panel keeps it. */
export interface TriggerRule {
  /** 1 to 64 letters, digits, `_` or `-`, unique among the rules. */
  id: string;
  name?: string;
  /** Default true. */
  enabled?: boolean;
  /** Default `{}`: fires on every page. */
  conditions?: TriggerConditions;
  action: TriggerAction;
  /** Default `'once_per_visit'`. */
  frequency?: 'once_per_visitor' | 'once_per_visit' | 'every_page';
}

/** spec 2.3 rules object: what setRules takes (at most 50 rules); the first rule that fires on a page acts. */
export interface TriggerRules {
  rules: TriggerRule[];
}

/**
 * `window.svc_api` (spec 4.4), defined by the widget's loader as soon as its script runs. A wrong call throws a
 * TypeError that says how to call it right.
 *
 * @example
 * window.svc_onLoadCallback = () => {
 *   window.svc_api?.setContactInfo({ name: 'Ann', email: 'ann@example.com' });
 * };
 */
export interface SvcApi {
  /**
   * Opens the chat window; `{start: 'call'}` opens the call-back form with a phone field.
   *
   * @example
   * svc_api.open();
   * svc_api.open({ start: 'call' });
   */
  open(options?: OpenOptions): void;
  /**
   * Closes (minimizes) the chat window.
   *
   * @example
   * svc_api.close();
   */
  close(): void;
  /**
   * `'online'` while an agent of the channel is online, else `'offline'`.
   *
   * @example
   * if (svc_api.chatMode() === 'offline') showEmailForm();
   */
  chatMode(): ChatMode;
  /**
   * The contact data the visitor gave in the contacts form, or the page set with setContactInfo.
   *
   * @example
   * const { name, email } = svc_api.getContactInfo();
   */
  getContactInfo(): ContactInfoResult;
  /**
   * Asks for the visitor's number (1, 2, 3 ... as agents see it); loads the chat hidden if needed.
   *
   * @example
   * svc_api.getVisitorNumber((err, number) => {
   *   if (!err) console.log('visitor', number);
   * });
   */
  getVisitorNumber(callback: VisitorNumberCallback): void;
  /**
   * Sets the visitor's contact data, shown to the agent as if the visitor had filled in the contacts form.
   *
   * @example
   * svc_api.setContactInfo({ name: 'Ann Lee', email: 'ann@example.com', phone: '+44 20 7946 0000' });
   */
  setContactInfo(info: ContactInfo): void;
  /**
   * Replaces the fields shown in the agent's right-hand panel, in this order; may be called again at any time.
   * Not trusted: anyone can change it in the browser.
   *
   * @example
   * svc_api.setCustomData([
   *   { title: 'Plan', content: 'Pro' },
   *   { title: 'Order', content: '#1042', link: 'https://shop.example/orders/1042' },
   * ]); // { result: 'ok' }
   */
  setCustomData(fields: CustomDataField[]): CustomDataResult;
  /**
   * Sets an id of your own for the visitor, echoed in server webhooks. With `{signature}` from the site's
   * server when the channel verifies visitors (docs/widget.md).
   *
   * @example
   * svc_api.setUserToken('user-8c1f2e', { signature: signatureFromYourServer });
   */
  setUserToken(token: string, options?: { signature?: string }): UserTokenResult;
  /**
   * Sends a message through the offline form: the message and an e-mail or a phone are needed.
   *
   * @example
   * svc_api.sendOfflineMessage({ name: 'Ann', email: 'ann@example.com', message: 'Please call me back' });
   */
  sendOfflineMessage(message: OfflineMessage): OfflineMessageResult;
  /**
   * Replaces the channel's trigger rules on this page.
   *
   * @example
   * svc_api.setRules({
   *   rules: [{ id: 'pricing', conditions: { page_url: ['*\/pricing*'], time_on_page: 20 }, action: { type: 'invite', text: 'Questions about plans?' } }],
   * });
   */
  setRules(rules: TriggerRules): void;
  /**
   * Opens the chat with this text as an invitation from the team; the agent sees it as context. To show it
   * when the page opens, call it in svc_onLoadCallback.
   *
   * @example
   * svc_api.showProactiveInvitation('Need help choosing a size?', 3);
   */
  showProactiveInvitation(invitationText: string, departmentId?: number): void;
  /**
   * Asks for a callback to this number: ok when the number looks right and calls are available now.
   *
   * @example
   * const answer = svc_api.startCall('+44 20 7946 0000');
   * if (answer.result === 'fail') alert(answer.reason);
   */
  startCall(phone: string): StartCallResult;
  /**
   * Tells whether calls can be requested now, once the widget has its settings.
   *
   * @example
   * svc_api.isCallbackEnabled((answer) => {
   *   callButton.hidden = answer.result !== 'ok';
   * });
   */
  isCallbackEnabled(callback: (result: CallbackAvailability) => void): void;
  /**
   * Listens to a page event; answers the function that stops listening.
   *
   * @example
   * const stop = svc_api.on('message:received', (message) => console.log(message.agent_name, message.text));
   * stop();
   */
  on<K extends PageEventName>(event: K, listener: (data: PageEvents[K]) => void): () => void;
}

/** spec 6.3: the functions a page may define on `window`; the widget calls them. */
export interface PageCallbacks {
  /**
   * The widget is ready: its launcher is shown and svc_api acts at once.
   *
   * @example
   * window.svc_onLoadCallback = () => window.svc_api?.showProactiveInvitation('Hello!');
   */
  svc_onLoadCallback(): void;
  /**
   * The chat window opened.
   *
   * @example
   * window.svc_onOpen = () => analytics.track('chat opened');
   */
  svc_onOpen(): void;
  /**
   * The chat window closed.
   *
   * @example
   * window.svc_onClose = () => analytics.track('chat closed');
   */
  svc_onClose(): void;
  /**
   * The visitor sent the first message.
   *
   * @example
   * window.svc_onMessageSent = () => analytics.track('chat started');
   */
  svc_onMessageSent(): void;
  /**
   * An agent took the chat (pressed Reply).
   *
   * @example
   * window.svc_onAccept = () => analytics.track('chat accepted');
   */
  svc_onAccept(): void;
  /**
   * The visitor filled in the contacts form.
   *
   * @example
   * window.svc_onIntroduction = () => console.log(window.svc_api?.getContactInfo());
   */
  svc_onIntroduction(): void;
  /**
   * The widget's size changed.
   *
   * @example
   * window.svc_onResizeCallback = () => layoutCookieBanner();
   */
  svc_onResizeCallback(): void;
  /**
   * The window changed state (spec 3).
   *
   * @example
   * window.svc_onChangeState = (state) => console.log('chat is now', state);
   */
  svc_onChangeState(state: WidgetState): void;
  /**
   * The visitor's callback request was taken: a call starts.
   *
   * @example
   * window.svc_onCallStart = () => analytics.track('call requested');
   */
  svc_onCallStart(): void;
  /**
   * A call ended.
   *
   * @example
   * window.svc_onCallEnd = (end) => {
   *   if (end.result === 'fail') console.warn(end.reason);
   * };
   */
  svc_onCallEnd(result: CallEndResult): void;
}

export type CallbackName = keyof PageCallbacks;
