import type {
  CallbackAvailability,
  ContactInfo,
  CustomDataField,
  Invitation,
  PageEvent,
  SignedUserToken,
  TriggerRules,
} from '@svc/protocol';
import type { CallbackName, ChatMode, PageCallbacks } from '../page-api/types.ts';
import type { View, ViewAction } from '../state/view-state.ts';

/**
 * The loader and the chat frame talk over one MessageChannel whose port the loader hands to the frame, posted
 * to the frame's own origin only. Every message is a key of one of these two typed maps.
 *
 * The loader is a thin shell (its budget is 2 KB gzip): the frame decides the window state and which page
 * callbacks fire; the loader shows what it is told and relays the page's calls. Host-to-frame messages are
 * all "latest value" messages, so the loader keeps only the last of each and replays them to a fresh frame.
 */
export interface HostToFrame {
  /** The visitor clicked the launcher, or the page called open/close. */
  act: ViewAction;
  /** Page data (spec 4.4: setContactInfo, setCustomData, setUserToken); the frame sends it on to the server
   * (as contact:set, custom-data:set and user-token:set). Short names: each is spelled out in the loader. */
  contact: ContactInfo;
  fields: CustomDataField[];
  token: SignedUserToken;
  /** showProactiveInvitation, or a trigger rule that fired. */
  invite: Invitation;
  /** startCall with a number that passed the loader's check. */
  call: string;
  /** setRules: read by the triggers script; the frame ignores it. */
  rules: TriggerRules;
  /** Another tab of the site saved a value (the visitor token). */
  saved: Saved;
  /** A single-page app moved to another address (History API, hash): a page view, sent on as a page load's. */
  page: FrameInit['page'];
}

/**
 * What the widget keeps across pages, in the site's own (first-party) storage: browsers block or partition
 * the storage of a third-party frame, and the visitor must stay the same visitor on every page and tab.
 * visitor: the visitor token (localStorage, shared by the site's tabs); outbox and view: this tab's unsent
 * messages and open window (sessionStorage).
 */
export type SavedKey = 'visitor' | 'outbox' | 'view';
export interface Saved {
  key: SavedKey;
  value: string | null;
}

/** Everything the loader shows and the synchronous page API answers from, sent whole on every change. */
export interface FrameState {
  view: View;
  status: ChatMode;
  contact: ContactInfo;
  /** Null until the server has answered. */
  visitor_number: number | null;
  /** Agent messages that arrived while the window was closed. */
  unread: number;
  /** Load the frame at once on the site's next page: a conversation goes on, or the window is open. */
  preload: boolean;
  /** What isCallbackEnabled answers (and startCall, for a well-formed number). */
  callback: CallbackAvailability;
  /** The launcher's accessible name in the visitor's language; absent until the frame has loaded it. */
  label?: string;
}

type Fire = { [K in CallbackName]: { name: K; args: Parameters<PageCallbacks[K]> } }[CallbackName];

export interface FrameToHost {
  state: FrameState;
  /** A page callback to call (spec 6.3). */
  fire: Fire;
  /** A page event for svc_api.on's listeners: the embed script dispatches it on the page's window. */
  event: PageEvent;
  /** Keep this value in the site's storage (null removes it). */
  save: Saved;
}

export type BridgeMessage<M> = { [K in keyof M]: { type: K; data: M[K] } }[keyof M];

/** The first message, posted with the port: which widget, and the page the visitor is on (spec 2.3 page). */
export interface FrameInit {
  type: 'svc:init';
  widget_id: string;
  /** What the loader's settings request said; the frame starts from it until its session arrives. */
  status: ChatMode;
  callback: CallbackAvailability;
  /** What the widget saved on the site's earlier pages. */
  saved: Partial<Record<SavedKey, string>>;
  page: { url: string; title: string; referrer: string };
}
