import { createAgentsRepo } from './agents-repo.ts';
import { createAppearanceRepo } from './appearance-repo.ts';
import { createBotEventsRepo } from './bot-events-repo.ts';
import { createBotProvidersRepo } from './bot-providers-repo.ts';
import { createCallsRepo } from './calls-repo.ts';
import { createChannelSitesRepo } from './channel-sites-repo.ts';
import { createChannelsRepo } from './channels-repo.ts';
import { createChatsRepo } from './chats-repo.ts';
import { openDb } from './db.ts';
import { createDeliveriesRepo } from './deliveries-repo.ts';
import { createDepartmentsRepo } from './departments-repo.ts';
import { createMessagesRepo } from './messages-repo.ts';
import { createOfflineMessagesRepo } from './offline-messages-repo.ts';
import { isPostgresUrl } from './dialect.ts';
import { openPgStore } from './postgres/pg-store.ts';
import { createSettingsRepo } from './settings-repo.ts';
import { createTriggersRepo } from './triggers-repo.ts';
import { createVisitorsRepo } from './visitors-repo.ts';
import { createWriteBatcher } from './write-batcher.ts';

export interface StoreOptions {
  /** `SVC_DB`: a SQLite file path (the embedded default), or a `postgres://` URL. */
  db: string;
  /** SQLite's `synchronous` in WAL mode: `full` means a commit is on disk before it returns. */
  sync: 'full' | 'normal' | 'off' | 'extra';
  /** PostgreSQL: connections in this node's pool. */
  poolSize?: number;
}

/** Every repository over one database. The only way the rest of the server reaches the data. */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (isPostgresUrl(options.db)) return openPgStore({ url: options.db, poolSize: options.poolSize });
  return openSqliteStore(options.db, options.sync);
}

function openSqliteStore(path: string, sync: StoreOptions['sync']) {
  const db = openDb({ path, sync });
  const writes = createWriteBatcher(db);
  return {
    dialect: 'sqlite' as 'sqlite' | 'postgres',
    settings: createSettingsRepo(db),
    agents: createAgentsRepo(db),
    channels: createChannelsRepo(db),
    botProviders: createBotProvidersRepo(db),
    botEvents: createBotEventsRepo(db),
    chats: createChatsRepo(db, writes),
    messages: createMessagesRepo(db),
    visitors: createVisitorsRepo(db, writes),
    offlineMessages: createOfflineMessagesRepo(db, writes),
    deliveries: createDeliveriesRepo(db, writes),
    triggers: createTriggersRepo(db),
    appearance: createAppearanceRepo(db),
    departments: createDepartmentsRepo(db),
    calls: createCallsRepo(db, writes),
    channelSites: createChannelSitesRepo(db),
    async close(): Promise<void> {
      if (db.open) db.close();
    },
  };
}
export type Store = ReturnType<typeof openSqliteStore>;
