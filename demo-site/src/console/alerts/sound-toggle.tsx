import { useStore } from '../lib/use-store.ts';
import type { ActivityAlerts } from './activity-alerts.ts';
import './sound-toggle.css';

function BellIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg class="sound-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path
        d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2 15a2 2 0 0 0 4 0"
        fill="none"
        stroke="currentColor"
        stroke-width="2"
      />
      {crossed && <path d="M4 4l16 16" stroke="currentColor" stroke-width="2" />}
    </svg>
  );
}

/** The agent's switch for the alert sound (a new chat, a message in a chat not on screen). */
export function SoundToggle({ alerts }: { alerts: ActivityAlerts }) {
  const on = useStore(alerts.soundOn);
  return (
    <button
      type="button"
      class="button button--ghost sound-toggle"
      aria-pressed={on}
      title={on ? 'Sound alerts are on' : 'Sound alerts are off'}
      onClick={() => alerts.soundOn.set(!on)}
    >
      <BellIcon crossed={!on} /> Sound
    </button>
  );
}
