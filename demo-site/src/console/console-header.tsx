import { SoundToggle } from './alerts/sound-toggle.tsx';
import { ShortcutsButton } from './keyboard/shortcuts-button.tsx';
import type { ConsoleSession } from './live/console-session.ts';
import { NotificationsButton } from './notifications/notifications-button.tsx';
import { PresenceToggle } from './presence/presence-toggle.tsx';
import { ProfileMenu } from './profile/profile-menu.tsx';

interface ConsoleHeaderProps {
  session: ConsoleSession;
  win: Window & typeof globalThis;
  onLogout: () => void;
  /** Admins only: whether the admin panel is shown, and the switch between it and the chats. */
  managing: boolean;
  onManage: () => void;
  onShowShortcuts: () => void;
}

export function ConsoleHeader({ session, win, onLogout, managing, onManage, onShowShortcuts }: ConsoleHeaderProps) {
  return (
    <header class="console-header">
      <span class="brand" aria-hidden="true">
        ●
      </span>
      <h1 class="console-title">Agents' console</h1>
      <div class="header-actions">
        {session.me.role === 'admin' && (
          <button type="button" class="button button--ghost" aria-pressed={managing} onClick={onManage}>
            Manage
          </button>
        )}
        <NotificationsButton win={win} />
        <SoundToggle alerts={session.alerts} />
        <ShortcutsButton onClick={onShowShortcuts} />
        <PresenceToggle api={session.api} presence={session.presence} />
        <ProfileMenu api={session.api} me={session.me} savedReplies={session.tools} />
        <button type="button" class="button button--ghost" onClick={onLogout}>
          Log out
        </button>
      </div>
    </header>
  );
}
