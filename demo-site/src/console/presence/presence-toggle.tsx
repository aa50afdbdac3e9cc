import type { PresenceStatus } from '@svc/protocol';
import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/api-client.ts';
import { errorText } from '../api/api-error.ts';
import type { Store } from '../lib/create-store.ts';
import { useStore } from '../lib/use-store.ts';

/** Online / offline (`PUT /api/v1/me/presence`): a channel is available (status 1) while one of its agents is online. */
export function PresenceToggle({ api, presence }: { api: ApiClient; presence: Store<PresenceStatus> }) {
  const status = useStore(presence);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const online = status === 'online';

  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      presence.set(await api.setPresence(online ? 'offline' : 'online'));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <span class="presence">
      <button
        type="button"
        role="switch"
        aria-checked={online}
        class={`presence-toggle ${online ? 'is-online' : ''}`}
        disabled={busy}
        onClick={toggle}
        title={error ?? undefined}
      >
        <span class="presence-dot" aria-hidden="true" />
        {online ? 'Online' : 'Offline'}
      </button>
      {error && (
        <span class="sr-only" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
