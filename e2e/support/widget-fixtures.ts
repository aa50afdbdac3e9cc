import type { AgentView, ChannelView } from '@svc/protocol';
import { uniqueSuffix } from './admin-api.ts';
import { e2eEnv } from './e2e-env.ts';
import { test as base } from './fixtures.ts';
import { requestJson } from './http-json.ts';
import { AgentApi } from './widget-agent.ts';
import { WidgetHostPage } from './widget-host-page.ts';
import { WidgetPage } from './widget-page.ts';

/** What each widget test gets for itself: an online agent with an avatar, a widget channel served by that
 * agent, and a site on another origin whose page carries the channel's embed snippet. */
export interface WidgetWorkspace {
  agent: AgentView & { email: string; password: string };
  agentApi: AgentApi;
  channel: ChannelView;
  site: WidgetHostPage;
}

export const test = base.extend<{ widget: WidgetWorkspace; widgetPage: WidgetPage }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern
  widget: async ({}, use) => {
    const { baseUrl, adminToken } = e2eEnv();
    const site = await WidgetHostPage.start();
    const password = `pw-${uniqueSuffix()}`;
    const agent = await requestJson<AgentView & { token: string }>(`${baseUrl}/api/v1/agents`, {
      token: adminToken,
      body: { name: 'Alex Agent', email: `agent-${uniqueSuffix()}@example.com`, password, photo: `${site.url}/pixel.png` },
    });
    const channel = await requestJson<ChannelView>(`${baseUrl}/api/v1/channels`, {
      token: adminToken,
      body: { kind: 'widget', name: `Tea shop ${uniqueSuffix()}`, agent_ids: [agent.id] },
    });
    site.embed = channel.embed!;
    const agentApi = new AgentApi(baseUrl, agent.token);
    await agentApi.setPresence('online');
    await use({ agent: { ...agent, password }, agentApi, channel, site });
    await agentApi.setPresence('offline');
    await site.close();
  },

  widgetPage: async ({ page }, use) => use(new WidgetPage(page)),
});

export { expect } from '@playwright/test';
