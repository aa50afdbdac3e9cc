import type { EmitPageEvent } from '@svc/protocol';
import type { FrameToHost } from '../bridge/messages.ts';
import type { Store } from '../state/store.ts';
import { nextView, type View, type ViewAction } from '../state/view-state.ts';

/**
 * Applies what the visitor or the page asks of the window (state machine in state/view-state.ts) and names
 * the page callbacks it makes fire (spec 6.3): svc_onOpen / svc_onClose when the window appears or goes,
 * svc_onChangeState with the state of spec 3, svc_onResizeCallback when the widget's box changes.
 */
export function createViewController(
  view: Store<View>,
  inConversation: () => boolean,
  fire: (event: FrameToHost['fire']) => void,
  emit: EmitPageEvent,
) {
  return (action: ViewAction) => {
    const current = view.get();
    const change = nextView(current, action, inConversation());
    if (!change) return;
    const [next, state] = change;
    view.set(next);
    if (current === 'closed') fire({ name: 'svc_onOpen', args: [] });
    if (next === 'closed') fire({ name: 'svc_onClose', args: [] });
    fire({ name: 'svc_onChangeState', args: [state] });
    emit('state:change', { state });
    if (current === 'closed' || next === 'closed') fire({ name: 'svc_onResizeCallback', args: [] });
  };
}
