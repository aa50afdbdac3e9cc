import { expect, test } from '../support/widget-fixtures.ts';

test.describe('widget: rating', () => {
  test('widget: once an agent has answered, the visitor rates the conversation and the agent sees it', async ({ widget, widgetPage }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Do you ship to Norway?');
    const chat = await widget.agentApi.chatWith('Do you ship to Norway?');
    await widget.agentApi.send(chat.id, { type: 'text', text: 'Yes, in 3 days.' });

    await test.step('the widget offers a rating after the answer', async () => {
      await expect(widgetPage.message('Yes, in 3 days.')).toBeVisible();
      await widgetPage.frame.getByRole('button', { name: 'Rate this conversation as good' }).click();
      await expect(widgetPage.frame.getByText('Thanks for your feedback.')).toBeVisible();
    });

    await test.step('the agent sees the rating on the chat', async () => {
      await expect.poll(async () => (await widget.agentApi.chat(chat.id)).rate).toBe('positive');
    });
  });
});
