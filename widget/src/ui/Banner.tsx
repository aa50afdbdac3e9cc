import type { WidgetModel } from '../frame/widget-model.ts';
import { useStore } from './use-store.ts';

/** The connection's state and the offline state (no agent online), above the conversation. */
export function Banner({ model, openContact }: { model: WidgetModel; openContact: () => void }) {
  const connection = useStore(model.connection);
  const { status } = useStore(model.conversation);
  const waiting = useStore(model.outbox).filter((item) => item.state !== 'failed').length;
  if (connection === 'unavailable')
    return (
      <p class="banner error" role="alert">
        The chat is not available on this site right now.
      </p>
    );
  if (connection === 'reconnecting')
    return (
      <p class="banner warn" role="status">
        Connection lost. Reconnecting…
        {waiting > 0 && ` Your ${waiting === 1 ? 'message' : `${waiting} messages`} will be sent when the connection is back.`}
      </p>
    );
  if (connection === 'connecting')
    return (
      <p class="banner" role="status">
        Connecting…
      </p>
    );
  if (status === 'offline')
    return (
      <p class="banner offline" role="status">
        No one is online right now. Leave a message and we will answer here as soon as we are back.{' '}
        <button type="button" class="link" onClick={openContact}>
          Leave your contact details
        </button>
      </p>
    );
  return null;
}
