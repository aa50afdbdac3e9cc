import type { Store } from '../store.ts';
import { createAgentsRepo } from './agents-repo.ts';
import { createAppearanceRepo } from './appearance-repo.ts';
import { createBotEventsRepo } from './bot-events-repo.ts';
import { createBotProvidersRepo } from './bot-providers-repo.ts';
import { createCallsRepo } from './calls-repo.ts';
import { createCannedRepliesRepo } from './canned-replies-repo.ts';
import { createChatReadsRepo } from './chat-reads-repo.ts';
import { createChannelSitesRepo } from './channel-sites-repo.ts';
import { createChannelsRepo } from './channels-repo.ts';
import { createChatsRepo } from './chats-repo.ts';
import { openDb, type OpenDbOptions } from './db.ts';
import { createDeliveriesRepo } from './deliveries-repo.ts';
import { createDepartmentsRepo } from './departments-repo.ts';
import { createMessagesRepo } from './messages-repo.ts';
import { createNotesRepo } from './notes-repo.ts';
import { createOfflineMessagesRepo } from './offline-messages-repo.ts';
import { createSettingsRepo } from './settings-repo.ts';
import { createTriggersRepo } from './triggers-repo.ts';
import { createVisitorsRepo } from './visitors-repo.ts';
import { createWalCheckpointer } from './wal-checkpointer.ts';
import { createWalSync } from './wal-sync.ts';
import { createWriteBatcher } from './write-batcher.ts';
import { createReportsRepo } from './reports-repo.ts';
import { completePendingErasures, createPrivacyRepo, type ErasuresCompleted } from './privacy-repo.ts';
import { createSearchRepo } from './search-repo.ts';
import { createMessageSearchIndex } from './message-search-index.ts';
import { createOutboxStatsRepo } from './outbox-stats-repo.ts';

/** The repositories over one SQLite file (the embedded default): one node, writes batched per transaction. */
export function openSqliteStore(options: OpenDbOptions & { onErasuresCompleted?: (completed: ErasuresCompleted) => void }): Store {
  const db = openDb(options);
  const searchIndex = createMessageSearchIndex(db);
  const walSync = !db.memory && (options.sync === 'full' || options.sync === 'extra') ? createWalSync(db, options.sync) : undefined;
  const writes = createWriteBatcher(db, { beforeCommit: searchIndex.catchUpWhenDue, walSync });
  const checkpointer = db.memory
    ? undefined
    : createWalCheckpointer(db, options.sync, { onPurged: completePendingErasures(db, options.onErasuresCompleted) });
  return {
    dialect: 'sqlite',
    settings: createSettingsRepo(db),
    agents: createAgentsRepo(db),
    channels: createChannelsRepo(db),
    botProviders: createBotProvidersRepo(db),
    botEvents: createBotEventsRepo(db, writes),
    chats: createChatsRepo(db, writes),
    messages: createMessagesRepo(db),
    notes: createNotesRepo(db, writes),
    cannedReplies: createCannedRepliesRepo(db),
    chatReads: createChatReadsRepo(db),
    visitors: createVisitorsRepo(db, writes),
    offlineMessages: createOfflineMessagesRepo(db, writes),
    deliveries: createDeliveriesRepo(db, writes),
    triggers: createTriggersRepo(db),
    appearance: createAppearanceRepo(db),
    departments: createDepartmentsRepo(db),
    calls: createCallsRepo(db, writes),
    channelSites: createChannelSitesRepo(db),
    reports: createReportsRepo(db),
    outboxStats: createOutboxStatsRepo(db),
    privacy: createPrivacyRepo(db, writes, checkpointer),
    search: createSearchRepo(db, writes, searchIndex),
    writeBacklog: writes.backlog,
    async close(): Promise<void> {
      await walSync?.close();
      await checkpointer?.close();
      if (db.open) db.close();
    },
  };
}
