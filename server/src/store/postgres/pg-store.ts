import type { Store } from '../store.ts';
import { createAgentMessageBatcher } from './agent-message.ts';
import { createPgAgentsRepo } from './agents-repo.ts';
import { createPgAppearanceRepo } from './appearance-repo.ts';
import { createPgBotEventsRepo } from './bot-events-repo.ts';
import { createPgBotProvidersRepo } from './bot-providers-repo.ts';
import { createPgCallsRepo } from './calls-repo.ts';
import { createPgChannelSitesRepo } from './channel-sites-repo.ts';
import { createPgChannelsRepo } from './channels-repo.ts';
import { createPgChatsRepo } from './chats-repo.ts';
import { createClientMessageBatcher } from './client-message-batch.ts';
import { createPgDeliveriesRepo } from './deliveries-repo.ts';
import { createPgDepartmentsRepo } from './departments-repo.ts';
import { createPgMessagesRepo } from './messages-repo.ts';
import { createPgNotesRepo } from './notes-repo.ts';
import { createPgCannedRepliesRepo } from './canned-replies-repo.ts';
import { createPgChatReadsRepo } from './chat-reads-repo.ts';
import { createOfflineMessageBatcher, createPgOfflineMessagesRepo } from './offline-messages-repo.ts';
import { openPgDb, type OpenPgOptions } from './pg-db.ts';
import { createPgSettingsRepo } from './settings-repo.ts';
import { createPgTriggersRepo } from './triggers-repo.ts';
import { createPgVisitorsRepo } from './visitors-repo.ts';
import { createPgReportsRepo } from './reports-repo.ts';
import { createPgPrivacyRepo } from './privacy-repo.ts';
import { createPgSearchRepo } from './search-repo.ts';
import { createPgOutboxStatsRepo } from './outbox-stats-repo.ts';

/** The same repositories over PostgreSQL: several nodes share one database. */
export async function openPgStore(options: OpenPgOptions): Promise<Store> {
  const db = await openPgDb(options);
  // Its queue is writes the store is behind, as much as the pool's waiting clients are.
  const intakeBatch = createClientMessageBatcher(db);
  const agentBatch = createAgentMessageBatcher(db);
  const offlineBatch = createOfflineMessageBatcher(db);
  return {
    dialect: 'postgres',
    settings: createPgSettingsRepo(db),
    agents: createPgAgentsRepo(db),
    channels: createPgChannelsRepo(db),
    botProviders: createPgBotProvidersRepo(db),
    botEvents: createPgBotEventsRepo(db),
    chats: createPgChatsRepo(db, intakeBatch, agentBatch),
    messages: createPgMessagesRepo(db),
    notes: createPgNotesRepo(db),
    cannedReplies: createPgCannedRepliesRepo(db),
    chatReads: createPgChatReadsRepo(db),
    visitors: createPgVisitorsRepo(db),
    offlineMessages: createPgOfflineMessagesRepo(db, offlineBatch),
    deliveries: createPgDeliveriesRepo(db),
    triggers: createPgTriggersRepo(db),
    appearance: createPgAppearanceRepo(db),
    departments: createPgDepartmentsRepo(db),
    calls: createPgCallsRepo(db),
    channelSites: createPgChannelSitesRepo(db),
    reports: createPgReportsRepo(db),
    outboxStats: createPgOutboxStatsRepo(db),
    privacy: createPgPrivacyRepo(db),
    search: createPgSearchRepo(db),
    writeBacklog: () => db.pool.waitingCount + intakeBatch.backlog() + agentBatch.backlog() + offlineBatch.backlog(),
    close: () => db.close(),
  };
}
