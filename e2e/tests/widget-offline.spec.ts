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

  test('widget: with no agent online the window offers the offline form, which validates and reaches the agents', async ({
    widget,
    widgetPage,
  }) => {
    await widget.agentApi.setPresence('offline');
    await widgetPage.goto(widget.site.url);
    await widgetPage.launcher.click();
    const form = widgetPage.frame.getByRole('form', { name: 'No one is online right now' });
    await expect(form).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();

    await test.step('the visitor is told what is missing, in words', async () => {
      await form.getByRole('textbox', { name: 'Message' }).fill('Do you ship to Norway?');
      await form.getByRole('button', { name: 'Send message' }).click();
      await expect(form.getByRole('alert')).toHaveText('Please leave an e-mail address or a phone number so we can answer.');
    });

    await test.step('sent: thanked, and the agents have it', async () => {
      await form.getByRole('textbox', { name: 'Name' }).fill('Ola');
      await form.getByRole('textbox', { name: 'E-mail' }).fill('ola@example.com');
      await form.getByRole('button', { name: 'Send message' }).click();
      await expect(widgetPage.frame.getByRole('status').filter({ hasText: 'Thank you!' })).toContainText('at ola@example.com');
      const token = (widget.agent as unknown as { token: string }).token;
      const res = await fetch(`${e2eEnv().baseUrl}/api/v1/offline-messages`, { headers: { authorization: `Bearer ${token}` } });
      const list = (
        (await res.json()) as { offline_messages: { name: string; email: string; message: string; visitor_id: string | null }[] }
      ).offline_messages;
      expect(list).toContainEqual(
        expect.objectContaining({
          name: 'Ola',
          email: 'ola@example.com',
          message: 'Do you ship to Norway?',
          visitor_id: expect.any(String),
        }),
      );
    });

    await test.step('the visitor may write in the chat instead', async () => {
      await widgetPage.frame.getByRole('button', { name: 'Send another message' }).click();
      await form.getByRole('button', { name: 'Write in the chat instead' }).click();
      await expect(widgetPage.textbox).toBeVisible();
      await expect(widgetPage.offline).toBeVisible();
    });
  });
});
