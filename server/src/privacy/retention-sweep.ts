import type { Logger } from 'pino';
import type { DomainEvents } from '../conversations/domain-events.ts';
import type { PublicUrls } from '../lib/public-urls.ts';
import type { Store } from '../store/store.ts';
import { removeErasedFiles } from './erased-files.ts';

/** Chats per unit of work: small enough that intake never waits on the write lock for more than a few ms. */
export const RETENTION_BATCH = 200;

interface RetentionDeps {
  store: Store;
  events: DomainEvents;
  log: Logger;
  urls: PublicUrls;
  uploadsDir: string;
  everyMs: number;
}

/** Every `everyMs`, erases the closed chats older than their channel's `retention_days`, batch by batch,
 * yielding to other work between batches. Open chats are never swept. */
export function startRetentionSweep(deps: RetentionDeps) {
  let running: Promise<void> | undefined;
  let stopped = false;
  const sweep = async () => {
    let erased = 0;
    while (!stopped) {
      const batch = await deps.store.privacy.eraseExpiredChats(Date.now(), RETENTION_BATCH);
      for (const { channelId, chatIds } of batch.chats) deps.events.emit('chats.expired', { channelId, chatIds });
      await removeErasedFiles(batch.media, deps.uploadsDir, deps.urls);
      erased += batch.counts.chats;
      if (batch.walPending)
        deps.log.warn('retention: erased chats stay in the WAL while another process reads the database (emptied once it is done)');
      if (batch.counts.chats < RETENTION_BATCH) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (erased > 0) deps.log.info({ chats: erased }, 'retention erased closed chats');
  };
  const timer = setInterval(() => {
    running ??= sweep()
      .catch((err: unknown) => deps.log.error({ err }, 'retention sweep failed'))
      .finally(() => (running = undefined));
  }, deps.everyMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
