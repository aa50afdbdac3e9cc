import type { ChannelView } from '@svc/protocol';
import { test as base } from '@playwright/test';
import { AdminApi, uniqueSuffix, type TestAgent } from './admin-api.ts';
import { ConsolePage } from './console-page.ts';
import { Customer, type Sender } from './customer.ts';
import { e2eEnv } from './e2e-env.ts';
import { FakeIntegrator } from './fake-integrator.ts';

/** What each test gets for itself: an agent, a Chat API channel served by that agent, and the
 * integrating system behind the channel. Nothing is shared between tests. */
export interface Workspace {
  agent: TestAgent;
  channel: ChannelView;
  integrator: FakeIntegrator;
  /** A customer writing through the channel; each call is a different customer unless `id` is given. */
  customer(sender?: Partial<Sender>): Customer;
}

interface Fixtures {
  admin: AdminApi;
  workspace: Workspace;
  consolePage: ConsolePage;
}

export const test = base.extend<Fixtures>({
  // The server is started by global-setup on a free port, so the base URL is known only at run time.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern
  baseURL: async ({}, use) => use(e2eEnv().baseUrl),

  // eslint-disable-next-line no-empty-pattern -- as above
  admin: async ({}, use) => {
    const { baseUrl, adminToken } = e2eEnv();
    await use(new AdminApi(baseUrl, adminToken));
  },

  workspace: async ({ admin }, use) => {
    const integrator = await FakeIntegrator.start();
    const agent = await admin.createAgent('Alex Agent');
    let customers = 0;
    const channel = await admin.createChatApiChannel({
      name: `Shop app ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [agent.id],
    });
    await use({
      agent,
      channel,
      integrator,
      customer: (sender = {}) => new Customer(channel.endpoint!, { id: 1000 + ++customers, name: 'Ann Customer', ...sender }),
    });
    await integrator.close();
  },

  consolePage: async ({ page }, use) => use(new ConsolePage(page)),
});

export { expect } from '@playwright/test';
