/**
 * Tells the agent when the visitor types (spec 2.1 typein/typeout, both ways): `start` once when typing
 * begins, `stop` after `idleMs` without a keystroke, when the box is emptied, or when the message is sent.
 *
 * @example
 * const typing = createTypingReporter((state) => socket.emit('typing', { state }));
 * textarea.oninput = () => typing.input(textarea.value !== '');
 */
export function createTypingReporter(send: (state: 'start' | 'stop') => void, idleMs = 3000) {
  let typing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    if (!typing) return;
    typing = false;
    send('stop');
  };
  return {
    input(hasText: boolean) {
      if (!hasText) return stop();
      if (!typing) send('start');
      typing = true;
      clearTimeout(timer);
      timer = setTimeout(stop, idleMs);
    },
    stop,
  };
}
