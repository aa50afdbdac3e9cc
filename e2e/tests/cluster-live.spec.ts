import type { ChannelView } from '@svc/protocol';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { engineUnavailable, startPostgres, startRedis, type RunningPostgres, type RunningRedis } from '../../scripts/lib/engines.mjs';
import { AdminApi, type TestAgent } from '../support/admin-api.ts';
import { ConsolePage } from '../support/console-page.ts';
import { E2E_ADMIN_TOKEN } from '../support/e2e-env.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { WidgetHostPage } from '../support/widget-host-page.ts';
import { WidgetPage } from '../support/widget-page.ts';

// Several nodes behind a load balancer (docs/deployment.md): two built servers on one throw-away PostgreSQL
// and Redis, started here rather than in the global setup, which runs one node on SQLite for every other spec.
let postgres: RunningPostgres | undefined;
let redis: RunningRedis | undefined;
const nodes: ServerProcess[] = [];
let site: WidgetHostPage | undefined;

/** The nodes' environment: each one's public URL is left to its own bound address (PORT=0 is known only then). */
const nodeEnv = (db: string, redisUrl: string) => ({
  SVC_DB: db,
  SVC_REDIS_URL: redisUrl,
  PORT: '0',
  SVC_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
  SVC_ALLOW_PRIVATE_URLS: '1',
  SVC_RATE_LIMITS: 'off',
  SVC_GEOIP: 'off',
});

// Whatever ends the worker (a crash, Ctrl-C), PostgreSQL (a daemon of its own) and the children are stopped.
const stopAllNow = () => {
  for (const node of nodes) {
    try {
      process.kill(node.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  void redis?.stop();
  postgres?.stop();
};
process.once('exit', stopAllNow);

/** The socket.io websocket addresses a page opens, in its frames too. */
function websocketOrigins(page: Page): Set<string> {
  const origins = new Set<string>();
  page.on('websocket', (ws) => origins.add(new URL(ws.url()).host));
  return origins;
}

test.describe('cluster: two nodes on PostgreSQL and Redis', () => {
  test.describe.configure({ timeout: 60_000 });
  let nodeA: ServerProcess;
  let nodeB: ServerProcess;
  let agent: TestAgent;
  let channelOnB: ChannelView;

  test.beforeAll(async () => {
    try {
      postgres = await startPostgres({ fsync: false });
      redis = await startRedis();
    } catch (error) {
      test.skip(true, engineUnavailable(error));
      return;
    }
    const env = nodeEnv(postgres.createDatabase('svc_cluster_live'), redis.url);
    // One after the other: the first runs the migrations, the second finds them applied.
    nodes.push((nodeA = await startServerProcess('node A', env)));
    nodes.push((nodeB = await startServerProcess('node B', env)));

    const admin = new AdminApi(nodeA.url, E2E_ADMIN_TOKEN);
    agent = await admin.createAgent('Alex Agent');
    const channel = await admin.createWidgetChannel({ name: 'Tea shop', agentIds: [agent.id] });
    // The same channel read through node B: its embed snippet is built from node B's public URL.
    channelOnB = await new AdminApi(nodeB.url, E2E_ADMIN_TOKEN).getChannel(channel.id);
    site = await WidgetHostPage.start();
    site.embed = channelOnB.embed!;
  });

  test.afterAll(async () => {
    await site?.close();
    await Promise.all(nodes.splice(0).map((node) => node.stop()));
    await redis?.stop();
    postgres?.stop();
    process.removeListener('exit', stopAllNow);
  });

  test('cluster: an agent on node A and a visitor on node B talk live', async ({ browser, page }) => {
    expect(channelOnB.embed).toContain(nodeB.url);
    expect(channelOnB.embed).not.toContain(nodeA.url);

    let agentContext: BrowserContext | undefined;
    try {
      agentContext = await browser.newContext({ baseURL: nodeA.url });
      const agentConsole = new ConsolePage(await agentContext.newPage());
      const consoleSockets = websocketOrigins(agentConsole.page);
      const visitor = new WidgetPage(page);
      const visitorSockets = websocketOrigins(page);

      await test.step('the agent signs in to the console on node A and goes online', async () => {
        await agentConsole.login(agent.email, agent.password);
        await agentConsole.setPresence('online');
      });
      // Counted from here: everything the console shows next must arrive without a reload.
      let consoleLoads = 0;
      agentConsole.page.on('load', () => consoleLoads++);

      await test.step('a visitor opens the widget of node B on a page of another origin and writes', async () => {
        await visitor.goto(site!.url);
        await visitor.api((api) => api.setContactInfo({ name: 'Vera Visitor' }));
        await visitor.open();
        await visitor.say('Hello from node B');
        await expect(visitor.message('Hello from node B').getByText('Sent')).toBeVisible();
      });

      await test.step('the console on node A shows the new chat and the message live', async () => {
        await expect(agentConsole.chat('Vera Visitor')).toContainText('Hello from node B');
        await agentConsole.openChat('Vera Visitor');
        await expect(agentConsole.message('Hello from node B')).toBeVisible();
      });

      await test.step('the agent replies in the console and the visitor sees it live', async () => {
        await agentConsole.reply('Hello from node A');
        await expect(visitor.message('Hello from node A')).toContainText('Alex Agent');
      });

      await test.step("the visitor's typing shows in the console", async () => {
        await visitor.textbox.pressSequentially('One more ques');
        await expect(agentConsole.typingIndicator).toHaveText('Vera Visitor is typing…');
      });

      await test.step('the console talked to node A only and the widget to node B only, with no reload', async () => {
        expect([...consoleSockets]).toEqual([new URL(nodeA.url).host]);
        expect([...visitorSockets]).toEqual([new URL(nodeB.url).host]);
        expect(consoleLoads).toBe(0);
      });
    } finally {
      await agentContext?.close();
    }
  });
});
