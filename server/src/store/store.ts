import { createAgentsRepo } from './agents-repo.ts';
import { createBotEventsRepo } from './bot-events-repo.ts';
import { createBotProvidersRepo } from './bot-providers-repo.ts';
import { createCallsRepo } from './calls-repo.ts';
import { createChannelsRepo } from './channels-repo.ts';
import { createChatsRepo } from './chats-repo.ts';
import { openDb, type OpenDbOptions } from './db.ts';
import { createDeliveriesRepo } from './deliveries-repo.ts';
import { createDepartmentsRepo } from './departments-repo.ts';
import { createMessagesRepo } from './messages-repo.ts';
import { createOfflineMessagesRepo } from './offline-messages-repo.ts';
import { createSettingsRepo } from './settings-repo.ts';
import { createTriggersRepo } from './triggers-repo.ts';
import { createVisitorsRepo } from './visitors-repo.ts';
import { createWriteBatcher } from './write-batcher.ts';

/** Every repository over one database. The only way the rest of the server reaches the data. */
export function openStore(options: OpenDbOptions) {
  const db = openDb(options);
  const writes = createWriteBatcher(db);
  return {
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
    departments: createDepartmentsRepo(db),
    calls: createCallsRepo(db, writes),
    async close(): Promise<void> {
      if (db.open) db.close();
    },
  };
}
export type Store = ReturnType<typeof openStore>;
