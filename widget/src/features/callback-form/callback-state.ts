import type { CallbackAvailability, CallRequestAnswer, VisitorCallView, WidgetSession } from '@svc/protocol';
import type { FrameToHost } from '../../bridge/messages.ts';
import { createStore, type Store } from '../../state/store.ts';
import type { VisitorSocket } from '../../transport/visitor-socket.ts';

export interface CallbackState {
  /** What isCallbackEnabled answers right now. */
  availability: CallbackAvailability;
  /** The visitor's latest call in this tab (kept once over, so its outcome stays on screen). */
  call: VisitorCallView | null;
  /** The number the call goes to, when this tab asked for it. */
  phone: string | null;
}

const isOver = (call: VisitorCallView | null) => call !== null && (call.status === 'end' || call.status === 'error');
/** The answer when the service did not answer in time; the form says so in the visitor's language. */
export const NO_ANSWER: CallRequestAnswer = {
  result: 'fail',
  reason: 'Callback unavaiable',
  detail: 'The chat service did not answer; try again',
};

/**
 * The visitor's callback (spec 4.4 startCall, 6.3 svc_onCallStart / svc_onCallEnd): follows the server's
 * availability and call events, asks for calls, and names the page callbacks they fire.
 */
export function startCallbacks(socket: VisitorSocket, initial: CallbackAvailability, fire: (event: FrameToHost['fire']) => void) {
  const store: Store<CallbackState> = createStore<CallbackState>({ availability: initial, call: null, phone: null });

  const follow = (call: VisitorCallView) => {
    const previous = store.get().call;
    const known = previous?.id === call.id;
    // A late event of an earlier status must not move the call back.
    if (known && isOver(previous)) return;
    store.set((s) => ({ ...s, call }));
    if (!isOver(call)) return;
    fire(
      call.status === 'end'
        ? { name: 'svc_onCallEnd', args: [{ result: 'ok' }] }
        : { name: 'svc_onCallEnd', args: [{ result: 'fail', reason: call.reason ?? 'The call failed' }] },
    );
  };

  socket.on('session', (session: WidgetSession) =>
    store.set((s) => ({ ...s, availability: session.callback, call: session.call ?? (isOver(s.call) ? s.call : null) })),
  );
  socket.on('callback', (availability) => store.set((s) => ({ ...s, availability })));
  socket.on('call', follow);

  return {
    store,
    /** Asks the service to call `phone` back; svc_onCallStart fires once it took the request. */
    async request(phone: string): Promise<CallRequestAnswer> {
      // Sent at once, or as soon as the socket connects (startCall may come before the frame has connected).
      const answer = await socket
        .timeout(10_000)
        .emitWithAck('call:request', { phone })
        .catch(() => NO_ANSWER);
      if (answer.result === 'ok') {
        store.set((s) => ({ ...s, phone, call: s.call?.id === answer.call.id ? s.call : answer.call }));
        fire({ name: 'svc_onCallStart', args: [] });
      }
      return answer;
    },
    /** Back to the form after a call is over. */
    dismiss: () => store.set((s) => (isOver(s.call) ? { ...s, call: null, phone: null } : s)),
  };
}
export type Callbacks = ReturnType<typeof startCallbacks>;
