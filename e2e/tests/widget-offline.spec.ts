import { e2eEnv } from '../support/e2e-env.ts';
import { expect, test } from '../support/widget-fixtures.ts';

test.describe('widget: offline messages', () => {
  test('widget: svc_api.sendOfflineMessage validates, sends without loading the chat, and the agents get the message', async ({
    widget,
    widgetPage,
  }) => {
    await widget.agentApi.setPresence('offline');
    const frames: string[] = [];
    widgetPage.page.on('request', (r) => r.url().includes('frame.html') && frames.push(r.url()));
    await widgetPage.goto(widget.site.url);

    await test.step('the spec results: fail with the reason, or ok', async () => {
      expect(await widgetPage.page.evaluate(() => window.svc_api!.sendOfflineMessage({ name: 'Nina', message: 'Hi' }))).toEqual({
        result: 'fail',
        error: 'no email or phone',
      });
      expect(
        await widgetPage.page.evaluate(() =>
          window.svc_api!.sendOfflineMessage({ name: 'Nina', email: 'nina@example.com', message: 'Are you open on Sunday?' }),
        ),
      ).toEqual({ result: 'ok' });
    });

    await test.step('the agents see it; the chat window was never loaded', async () => {
      const token = (widget.agent as unknown as { token: string }).token;
      await expect
        .poll(async () => {
          const res = await fetch(`${e2eEnv().baseUrl}/api/v1/offline-messages`, { headers: { authorization: `Bearer ${token}` } });
          return ((await res.json()) as { offline_messages: { message: string }[] }).offline_messages.map((m) => m.message);
        })
        .toContain('Are you open on Sunday?');
      expect(frames).toEqual([]);
    });
  });
});
