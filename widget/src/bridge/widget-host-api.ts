import type { FrameState, HostToFrame } from './messages.ts';
import type { OfflineMessage, VisitorNumberCallback } from '../page-api/types.ts';
import type { ViewAction } from '../state/view-state.ts';

/** The page scripts the loader may load once the settings have come: the embed script (the chat frame) or
 * the triggers script. */
export type PageScript = 'embed' | 'triggers';

/** What svc_api drives; arguments are already validated. */
export interface WidgetHost {
  /** What the synchronous page API answers from: the settings, then whatever the frame last reported. */
  state: FrameState;
  act(action: ViewAction): void;
  /** Hands page data to the frame, now or when it loads (only the latest value of each kind is kept). */
  push<K extends keyof HostToFrame>(type: K, data: HostToFrame[K]): void;
  visitorNumber(callback: VisitorNumberCallback): void;
  /** Settles once the settings request has been answered (or has failed). */
  ready: Promise<void>;
  /** The channel takes only signed user tokens (from the settings). */
  verify?: boolean;
  /** Sends an offline message (already checked) straight to the service. */
  offline(message: OfflineMessage): void;
  /** Loads a page script of the widget once, when the settings have come: the embed script (the chat
   * frame) or the triggers script. */
  load(script: PageScript): void;
}
