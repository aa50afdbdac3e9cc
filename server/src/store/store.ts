import type { AgentsRepo } from './agents.ts';
import type { AppearanceRepo } from './appearance.ts';
import type { BotEventsRepo } from './bot-events.ts';
import type { BotProvidersRepo } from './bot-providers.ts';
import type { CallsRepo } from './calls.ts';
import type { CannedRepliesRepo } from './canned-replies.ts';
import type { ChannelSitesRepo } from './channel-sites.ts';
import type { ChannelsRepo } from './channels.ts';
import type { ChatReadsRepo } from './chat-reads.ts';
import type { ChatsRepo } from './chats.ts';
import type { DeliveriesRepo } from './deliveries.ts';
import type { DepartmentsRepo } from './departments.ts';
import type { MessagesRepo } from './messages.ts';
import type { NotesRepo } from './notes.ts';
import type { OfflineMessagesRepo } from './offline-messages.ts';
import type { SettingsRepo } from './settings.ts';
import type { TriggersRepo } from './triggers.ts';
import type { VisitorsRepo } from './visitors.ts';
import type { ReportsRepo } from './reports.ts';
import type { PrivacyRepo } from './privacy.ts';
import type { OutboxStatsRepo } from './outbox-stats.ts';
import type { SearchRepo } from './search.ts';

/** Every repository over one database: the only way the rest of the server reaches the data. Each dialect
 * (sqlite/, postgres/) implements it with its own SQL; `openStore` picks one. */
export interface Store {
  dialect: 'sqlite' | 'postgres';
  settings: SettingsRepo;
  agents: AgentsRepo;
  channels: ChannelsRepo;
  botProviders: BotProvidersRepo;
  botEvents: BotEventsRepo;
  chats: ChatsRepo;
  messages: MessagesRepo;
  notes: NotesRepo;
  cannedReplies: CannedRepliesRepo;
  chatReads: ChatReadsRepo;
  visitors: VisitorsRepo;
  offlineMessages: OfflineMessagesRepo;
  deliveries: DeliveriesRepo;
  triggers: TriggersRepo;
  appearance: AppearanceRepo;
  departments: DepartmentsRepo;
  calls: CallsRepo;
  channelSites: ChannelSitesRepo;
  reports: ReportsRepo;
  outboxStats: OutboxStatsRepo;
  privacy: PrivacyRepo;
  search: SearchRepo;
  /** Writes waiting for the database right now (SQLite: for the next group commit; PostgreSQL: for a pooled
   * connection): what admission control refuses new work on when the store falls behind. */
  writeBacklog(): number;
  close(): Promise<void>;
}
