import type { Logger } from 'pino';
import type { DomainEvents } from '../../conversations/domain-events.ts';
import type { Store } from '../../store/store.ts';

const TICK_MS = 20_000;

/**
 * Business hours open and close channels with no one doing anything: every tick, each channel with hours whose
 * status changed since the last tick is announced (visitors' chat mode, the offline form, agents' consoles).
 *
 * Several nodes each run their own watch, so an opening is announced once per node. That is
 * harmless: `channel.status` only broadcasts the new status (the same value again) to agents' and visitors'
 * rooms and makes each node re-check its visitors' callback availability, which sends only changes; nothing
 * it triggers is stored, enqueued or sent outside. A listener with such an effect would need a leader first.
 */
export function watchBusinessHours(deps: { store: Store; events: DomainEvents; log: Logger }) {
  const { store, events, log } = deps;
  const last = new Map<number, 0 | 1>();
  const tick = async () => {
    for (const channelId of await store.channels.withBusinessHours()) {
      const status = await store.channels.status(channelId);
      const before = last.get(channelId);
      last.set(channelId, status);
      if (before !== undefined && before !== status) events.emit('channel.status', { channelId, status });
    }
  };
  const timer = setInterval(() => void tick().catch((err: unknown) => log.error({ err }, 'business hours check failed')), TICK_MS);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}
