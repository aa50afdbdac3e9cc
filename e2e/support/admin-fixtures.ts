import type { TestAgent } from './admin-api.ts';
import { AdminPage } from './admin-page.ts';
import { e2eEnv } from './e2e-env.ts';
import { test as base } from './fixtures.ts';
import { AgentApi } from './widget-agent.ts';

/** What each admin panel test gets: a fresh admin agent (role admin), its agent API, and the panel's page object. */
export const test = base.extend<{ adminAgent: TestAgent; adminAgentApi: AgentApi; adminPage: AdminPage }>({
  adminAgent: async ({ admin }, use) => use(await admin.createAgent('Ada Admin', 'admin')),
  adminAgentApi: async ({ adminAgent }, use) => use(new AgentApi(e2eEnv().baseUrl, adminAgent.token)),
  adminPage: async ({ page }, use) => use(new AdminPage(page)),
});

export { expect } from '@playwright/test';
