import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../../frame/widget-model.ts';
import { a11yText } from '../../ui/a11y-text.ts';

/**
 * The visitor's End chat, asked once more below the header: ending cannot be undone. Escape keeps chatting
 * (and does not minimize the window); `done(true)` once the service has closed the chat.
 */
export function EndChatConfirm({ model, done }: { model: WidgetModel; done: (ended: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  const end = async () => {
    setBusy(true);
    setFailed(false);
    const ended = await model.endChat();
    setBusy(false);
    if (ended) done(true);
    else setFailed(true);
  };
  return (
    <div
      class="end-chat"
      role="group"
      aria-labelledby="end-question"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        done(false);
      }}
    >
      <p id="end-question">{a11yText.endQuestion}</p>
      {failed && <p role="alert">{a11yText.endFailed}</p>}
      <div class="row">
        <button type="button" class="primary" ref={confirm} disabled={busy} onClick={() => void end()}>
          {a11yText.endChat}
        </button>
        <button type="button" class="secondary" onClick={() => done(false)}>
          {a11yText.keepChatting}
        </button>
      </div>
    </div>
  );
}
