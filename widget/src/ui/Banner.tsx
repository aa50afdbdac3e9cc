import type { WidgetModel } from '../frame/widget-model.ts';
import { useStore } from './use-store.ts';

/** The connection's state and the offline state (no agent online), above the conversation. */
export function Banner({ model, openContact }: { model: WidgetModel; openContact: () => void }) {
  const connection = useStore(model.connection);
  const { status } = useStore(model.conversation);
  const waiting = useStore(model.outbox).filter((item) => item.state !== 'failed').length;
  const { t } = model.texts;
  if (connection === 'unavailable')
    return (
      <p class="banner error" role="alert">
        {t('banner.unavailable')}
      </p>
    );
  if (connection === 'elsewhere')
    return (
      <p class="banner warn" role="status">
        {t('banner.other_tabs')}
      </p>
    );
  if (connection === 'reconnecting')
    return (
      <p class="banner warn" role="status">
        {t('banner.reconnecting')}
        {waiting > 0 && ` ${t('banner.queued', { count: waiting })}`}
      </p>
    );
  if (connection === 'connecting')
    return (
      <p class="banner" role="status">
        {t('banner.connecting')}
      </p>
    );
  if (status === 'offline')
    return (
      <p class="banner offline" role="status">
        {t('banner.offline')}{' '}
        <button type="button" class="link" onClick={openContact}>
          {t('banner.leave_contact')}
        </button>
      </p>
    );
  return null;
}
