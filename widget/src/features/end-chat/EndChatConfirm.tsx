import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../../frame/widget-model.ts';

/**
 * The visitor's End chat, asked once more below the header: ending cannot be undone. Escape keeps chatting
 * (and does not minimize the window); `done(true)` once the service has closed the chat.
 */
export function EndChatConfirm({ model, done }: { model: WidgetModel; done: (ended: boolean) => void }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const confirm = useRef<HTMLButtonElement>(null);
  const { t } = model.texts;
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
      <p id="end-question">{t('chat.end_question')}</p>
      {failed && <p role="alert">{t('chat.end_failed')}</p>}
      <div class="row">
        <button type="button" class="primary" ref={confirm} disabled={busy} onClick={() => void end()}>
          {t('chat.end')}
        </button>
        <button type="button" class="secondary" onClick={() => done(false)}>
          {t('chat.keep')}
        </button>
      </div>
    </div>
  );
}
