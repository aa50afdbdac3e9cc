import { expect, test } from '../support/widget-fixtures.ts';

test.describe('widget: paging', () => {
  test('widget: a long chat comes back with its newest 50 messages and the visitor scrolls up through older pages', async ({
    widget,
    widgetPage,
    page,
  }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('The very first question');
    const chat = await widget.agentApi.chatWith('The very first question');
    for (let i = 1; i <= 119; i++) await widget.agentApi.say(chat.id, `answer ${i}`);
    const lines = widgetPage.messages.getByRole('listitem');

    await test.step('on the next page view the session carries the newest 50, scrolled to the last', async () => {
      await page.reload();
      // The widget comes back open, as the visitor left it.
      await expect(widgetPage.textbox).toBeVisible();
      await expect(lines).toHaveCount(50);
      await expect(lines.first()).toContainText('answer 70');
      await expect(widgetPage.messages.getByText('answer 119', { exact: true })).toBeInViewport();
    });

    await test.step('scrolling to the top loads the page before, keeping the message read in view', async () => {
      // Through the log's smooth scrolling, as the Home key does. Its last steps ran on after the page they asked
      // for had come and asked for the page before that one too (121 messages, not 100, on a busy machine).
      await widgetPage.messages.evaluate((el) => (el.scrollTop = 0));
      await expect(lines).toHaveCount(100);
      await expect(lines.first()).toContainText('answer 20');
      await expect(widgetPage.messages.getByText('answer 70', { exact: true })).toBeInViewport();
    });

    await test.step('down to the first message of the chat, under the greeting that opened it', async () => {
      await widgetPage.messages.evaluate((el) => el.scrollTo({ top: 0, behavior: 'instant' }));
      await expect(lines).toHaveCount(121);
      await expect(lines.first()).toContainText('Ask us anything: we are happy to help.');
      await expect(lines.nth(1)).toContainText('The very first question');
    });
  });

  test('widget: after missing more than a page while offline, the reconnect catches up on every message', async ({
    widget,
    widgetPage,
    context,
  }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Before the drop');
    await expect(widgetPage.message('Before the drop').getByText('Sent')).toBeVisible();
    const chat = await widget.agentApi.chatWith('Before the drop');

    await context.setOffline(true);
    await expect(widgetPage.reconnecting).toBeVisible();
    for (let i = 1; i <= 80; i++) await widget.agentApi.say(chat.id, `missed ${i}`);
    await context.setOffline(false);
    await expect(widgetPage.reconnecting).toBeHidden({ timeout: 10_000 });

    const lines = widgetPage.messages.getByRole('listitem');
    // The greeting, then every message.
    await expect(lines).toHaveCount(82);
    await expect(lines.nth(1)).toContainText('Before the drop');
    await expect(widgetPage.messages.getByText('missed 1', { exact: true })).toHaveCount(1);
    await expect(widgetPage.messages.getByText('missed 30', { exact: true })).toHaveCount(1);
  });
});
