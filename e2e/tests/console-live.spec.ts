import type { WebSocketRoute } from '@playwright/test';
import { expect, test } from '../support/fixtures.ts';

test.describe('console: live connection', () => {
  test('console: while the socket is down a banner shows, and on reconnect the console catches up', async ({ workspace, consolePage }) => {
    const { agent } = workspace;
    const page = consolePage.page;
    const gina = workspace.customer({ name: 'Gina Gap' });
    const hugo = workspace.customer({ name: 'Hugo Gap' });

    // Every socket.io websocket goes through here, so the test can cut the live connection like a
    // server restart would, and refuse new ones until it lets them through again.
    const sockets: WebSocketRoute[] = [];
    let refuse = false;
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      if (refuse) return void ws.close({ code: 1011, reason: 'e2e: server away' });
      ws.connectToServer();
      sockets.push(ws);
    });

    await gina.say('First question');
    await hugo.say('Hello?');
    await consolePage.login(agent.email, agent.password);
    await consolePage.openChat('Gina Gap');
    await expect(consolePage.reconnecting).toBeHidden();

    await test.step('a dropped connection shows the reconnecting banner', async () => {
      refuse = true;
      await Promise.all(sockets.splice(0).map((ws) => ws.close({ code: 1012, reason: 'e2e: restart' })));
      await expect(consolePage.reconnecting).toBeVisible();
    });

    await test.step('what happened meanwhile is fetched when the connection is back', async () => {
      await gina.say('Are you there?');
      await hugo.say('Anyone?');
      refuse = false;
      await expect(consolePage.reconnecting).toBeHidden({ timeout: 10_000 });
      await expect(consolePage.message('Are you there?')).toBeVisible();
      await expect(consolePage.chat('Hugo Gap')).toContainText('Anyone?');
      await expect(consolePage.chat('Hugo Gap')).toContainText('unread');
    });

    await test.step('live events flow again', async () => {
      await gina.say('Still waiting');
      await expect(consolePage.message('Still waiting')).toBeVisible();
    });
  });
});
