import { useState } from 'preact/hooks';

/** Asks for the desktop-notification permission on a click, as browsers require; gone once decided. */
export function NotificationsButton({ win }: { win: Window & typeof globalThis }) {
  const Notice = win.Notification;
  const [permission, setPermission] = useState<NotificationPermission | 'unsupported'>(Notice ? Notice.permission : 'unsupported');
  if (permission !== 'default') return null;
  const ask = async () => setPermission(await Notice.requestPermission());
  return (
    <button type="button" class="button button--ghost" onClick={ask}>
      Enable notifications
    </button>
  );
}
