import type { WidgetState } from '../page-api/types.ts';

/** What the visitor sees: the launcher only, the chat window, or the callback form inside it. */
export type View = 'closed' | 'chat' | 'call';

/** What the visitor or the page asks for: the chat, the callback form, or closing the window. */
export type ViewAction = 'chat' | 'call' | 'close';

/**
 * The widget's window state machine (spec 3): the next view and the state string for svc_onChangeState, or
 * undefined when nothing changes. The callback form is `call` when it opens straight from the launcher and
 * `chat/call` from the chat window; closing is `chat/min` while a conversation goes on (the chat is only
 * minimized) and `label` otherwise.
 *
 * @example
 * nextView('closed', 'call', false); // ['call', 'call']
 * nextView('chat', 'close', true); // ['closed', 'chat/min']
 */
export function nextView(current: View, action: ViewAction, inConversation: boolean): [View, WidgetState] | undefined {
  const view: View = action === 'close' ? 'closed' : action;
  if (view === current) return undefined;
  if (view === 'closed') return [view, inConversation ? 'chat/min' : 'label'];
  return [view, view === 'chat' ? 'chat' : current === 'closed' ? 'call' : 'chat/call'];
}
