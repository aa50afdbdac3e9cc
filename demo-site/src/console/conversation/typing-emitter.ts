import type { TypingState } from '@svc/protocol';

/**
 * Turns keystrokes into typing start/stop for the customer's side: `start` on the first keystroke, `stop`
 * after `idleMs` without one, or at once when the message is sent. Nothing is sent for each keystroke.
 */
export function createTypingEmitter(send: (state: TypingState) => Promise<void>, idleMs = 2500) {
  let typing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A lost typing hint is harmless and stale a moment later: it is not worth an error on the screen.
  const emit = (state: TypingState) => void send(state).catch(() => undefined);

  const stop = () => {
    clearTimeout(timer);
    if (!typing) return;
    typing = false;
    emit('stop');
  };

  return {
    keystroke() {
      if (!typing) {
        typing = true;
        emit('start');
      }
      clearTimeout(timer);
      timer = setTimeout(stop, idleMs);
    },
    stop,
  };
}
