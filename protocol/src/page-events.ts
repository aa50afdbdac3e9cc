import type { MessageType } from './media.ts';

/** spec 3: the widget state passed to svc_onChangeState. */
export type WidgetState = 'chat' | 'call' | 'chat/call' | 'label' | 'chat/min';

/**
 * Events for page scripts beyond the spec's svc_ callbacks: `svc_api.on(name, listener)` returns a function
 * that removes the listener. Each listener gets one argument, the event's data.
 */
export interface PageEvents {
  /**
   * An agent's or the bot's message reached the visitor (not the history shown when the chat loads).
   *
   * @example
   * svc_api.on('message:received', (m) => console.log(m.agent_name ?? m.author, m.text));
   */
  'message:received': { id: number; author: 'agent' | 'bot'; type: MessageType; text?: string; agent_name?: string };
  /**
   * The service stored a message the visitor sent.
   *
   * @example
   * svc_api.on('message:sent', (m) => analytics.track('visitor message', { id: m.id }));
   */
  'message:sent': { id: number; type: MessageType; text?: string };
  /**
   * An agent started or stopped typing to the visitor.
   *
   * @example
   * svc_api.on('agent:typing', ({ typing, agent_name }) => (hint.textContent = typing ? `${agent_name} is typing` : ''));
   */
  'agent:typing': { typing: boolean; agent_name: string | null };
  /**
   * The window changed state: the value svc_onChangeState gets.
   *
   * @example
   * svc_api.on('state:change', ({ state }) => console.log('chat is now', state));
   */
  'state:change': { state: WidgetState };
  /**
   * The number of agent messages the visitor has not seen (the launcher's badge).
   *
   * @example
   * svc_api.on('unread:change', ({ count }) => (document.title = count ? `(${count}) Shop` : 'Shop'));
   */
  'unread:change': { count: number };
  /**
   * An agent came online, or the last one went offline (chatMode()).
   *
   * @example
   * svc_api.on('mode:change', ({ mode }) => (callUs.hidden = mode === 'online'));
   */
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
