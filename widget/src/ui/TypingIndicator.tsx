import type { WidgetModel } from '../frame/widget-model.ts';
import { useStore } from './use-store.ts';

/** "Alex is typing…": a live region that is always there, so screen readers announce it. */
export function TypingIndicator({ model }: { model: WidgetModel }) {
  const { typing } = useStore(model.conversation);
  const { t } = model.texts;
  return (
    <p class="typing" role="status" aria-live="polite">
      {typing === null ? '' : t('typing.someone', { name: typing || t('header.agent') })}
    </p>
  );
}
