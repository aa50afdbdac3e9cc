import { io, type Socket } from 'socket.io-client';
import { e2eEnv } from '../support/e2e-env.ts';
import { expect, test } from '../support/widget-fixtures.ts';
import { WidgetPage } from '../support/widget-page.ts';

/** What one visitor may hold at once (server/src/channels/widget/visitor-socket-limit.ts). */
const MAX_SOCKETS_PER_VISITOR = 20;

test.describe('widget: many tabs', () => {
  test('widget: a tab beyond the sockets one visitor may hold says the chat is open in other tabs, and joins in once one closes', async ({
    widget,
    widgetPage,
  }) => {
    test.setTimeout(60_000);
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Hello from the first tab');
    const token = await widgetPage.page.evaluate((key) => localStorage.getItem(key), `svc_widget:${widget.channel.public_id}:visitor`);
    expect(token).toBeTruthy();

    // The other tabs, as sockets of the same visitor: with the first tab's, the most one visitor may hold.
    const others: Socket[] = [];
    try {
      for (let i = 1; i < MAX_SOCKETS_PER_VISITOR; i++) {
        const socket = io(`${e2eEnv().baseUrl}/visitors`, {
          auth: { widget_id: widget.channel.public_id, visitor_token: token },
          transports: ['websocket'],
          reconnection: false,
        });
        others.push(socket);
        await new Promise<void>((resolve, reject) => {
          socket.once('session', () => resolve());
          socket.once('connect_error', reject);
        });
      }

      const extraTab = new WidgetPage(await widgetPage.page.context().newPage());
      await extraTab.goto(widget.site.url);
      await extraTab.open();
      await expect(extraTab.frame.getByText('This chat is already open in many other tabs. Close one of them to chat here.')).toBeVisible();

      // One tab closes: the extra tab gets in by itself (it tries again every few seconds) and shows the chat.
      others.pop()!.disconnect();
      await expect(extraTab.message('Hello from the first tab')).toBeVisible({ timeout: 20_000 });
      await expect(extraTab.frame.getByText('This chat is already open in many other tabs.', { exact: false })).toBeHidden();
    } finally {
      for (const socket of others) socket.disconnect();
    }
  });
});
