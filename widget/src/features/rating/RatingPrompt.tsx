import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetModel } from '../../frame/widget-model.ts';
import { useStore } from '../../ui/use-store.ts';
import { ThumbDownIcon, ThumbUpIcon } from './thumb-icons.tsx';

type Rate = 'positive' | 'negative';

/**
 * spec 2.3 chat.rate, asked once at the end of a chat an agent answered in (`chatId`, the chat that ended).
 * Once rated, the thanks takes the buttons' place and keyboard focus, so focus is never dropped.
 */
export function RatingPrompt({ model, chatId }: { model: WidgetModel; chatId: number }) {
  const [state, setState] = useState<'asking' | 'sending' | 'failed'>('asking');
  const rated = useStore(model.ratedChat) === chatId;
  const thanks = useRef<HTMLParagraphElement>(null);
  const { t } = model.texts;
  const rate = async (value: Rate) => {
    setState('sending');
    setState((await model.rate(value, chatId)) ? 'asking' : 'failed');
  };
  useEffect(() => {
    const shown = thanks.current;
    if (shown && shown.ownerDocument.activeElement === shown.ownerDocument.body) shown.focus();
  }, [rated]);
  return (
    <li class="msg system rating">
      {rated ? (
        <p ref={thanks} tabIndex={-1} role="status">
          {t('rating.thanks')}
        </p>
      ) : (
        <div role="group" aria-labelledby="rating-question">
          <p id="rating-question">{t('rating.prompt')}</p>
          <div class="rate-buttons">
            <button
              type="button"
              class="rate"
              aria-label={t('rating.good')}
              disabled={state === 'sending'}
              onClick={() => void rate('positive')}
            >
              <ThumbUpIcon />
            </button>
            <button
              type="button"
              class="rate"
              aria-label={t('rating.bad')}
              disabled={state === 'sending'}
              onClick={() => void rate('negative')}
            >
              <ThumbDownIcon />
            </button>
          </div>
          {state === 'failed' && <p role="alert">{t('rating.failed')}</p>}
        </div>
      )}
    </li>
  );
}
