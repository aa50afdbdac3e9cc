/**
 * Issue 24 typing preview: the visitor's draft for the agents, at most one `typing` event per `everyMs` with the
 * latest text (the visitor's typing budget is 120 events a minute). Used only when the channel has
 * typing_preview; `cancel` drops a draft not yet sent (the message was sent, the box emptied).
 *
 * @example
 * const draft = createDraftSender((text) => socket.emit('typing', { state: 'start', text }));
 * textarea.oninput = () => draft.update(textarea.value);
 */
export function createDraftSender(send: (text: string) => void, everyMs = 700) {
  let latest = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  return {
    update(text: string) {
      latest = text;
      timer ??= setTimeout(() => {
        timer = undefined;
        send(latest);
      }, everyMs);
    },
    cancel,
  };
}
