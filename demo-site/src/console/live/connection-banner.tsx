import type { Store } from '../lib/create-store.ts';
import { useStore } from '../lib/use-store.ts';
import type { ConnectionState } from './console-session.ts';

/** Says so while the live connection is down; the inbox is refetched as soon as it is back. */
export function ConnectionBanner({ connection }: { connection: Store<ConnectionState> }) {
  const state = useStore(connection);
  return (
    <div class="connection-banner" role="status" hidden={state !== 'reconnecting'}>
      {state === 'reconnecting' ? 'Connection lost. Reconnecting…' : ''}
    </div>
  );
}
