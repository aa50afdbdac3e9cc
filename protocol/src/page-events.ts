import type { MessageType } from './media.ts';

/** spec 3: the widget state passed to svc_onChangeState. */
export type WidgetState = 'chat' | 'call' | 'chat/call' | 'label' | 'chat/min';

/**
 * Events for page scripts beyond the spec's svc_ callbacks: `svc_api.on(name, listener)` returns a function
 * that removes the listener. Each listener gets one argument, the event's data.
 */
export interface PageEvents {
  /** An agent's or the bot's message reached the visitor (not the history shown when the chat loads). */
  'message:received': { id: number; author: 'agent' | 'bot'; type: MessageType; text?: string; agent_name?: string };
  /** The service stored a message the visitor sent. */
  'message:sent': { id: number; type: MessageType; text?: string };
  /** An agent started or stopped typing to the visitor. */
  'agent:typing': { typing: boolean; agent_name: string | null };
  /** The window changed state: the value svc_onChangeState gets. */
  'state:change': { state: WidgetState };
  /** The number of agent messages the visitor has not seen (the launcher's badge). */
  'unread:change': { count: number };
  /** An agent came online, or the last one went offline (chatMode()). */
  'mode:change': { mode: 'online' | 'offline' };
}
export type PageEventName = keyof PageEvents;
/** One page event with its data, as the chat frame reports it. */
export type PageEvent = { [K in PageEventName]: { name: K; data: PageEvents[K] } }[PageEventName];
export type EmitPageEvent = <K extends PageEventName>(name: K, data: PageEvents[K]) => void;
export const pageEventNames: readonly PageEventName[] = [
  'message:received',
  'message:sent',
  'agent:typing',
  'state:change',
  'unread:change',
  'mode:change',
];
