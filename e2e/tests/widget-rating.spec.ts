import { expect, test } from '../support/widget-fixtures.ts';

test.describe('widget: rating', () => {
  test('widget: the rating waits for the end of the chat; the agent closes it, the visitor rates once, and the agent sees it', async ({
    widget,
    widgetPage,
  }) => {
    const rating = widgetPage.frame.getByRole('group', { name: 'How was this conversation?' });
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Do you ship to Norway?');
    const chat = await widget.agentApi.chatWith('Do you ship to Norway?');
    await widget.agentApi.say(chat.id, 'Yes, in 3 days.');

    await test.step('no rating in the middle of the chat', async () => {
      await expect(widgetPage.message('Yes, in 3 days.')).toBeVisible();
      await expect(rating).toHaveCount(0);
    });

    await test.step('the agent closes the chat: the widget asks once, with icons rather than emoji', async () => {
      await widget.agentApi.close(chat.id);
      await expect(widgetPage.messages.getByText('The chat has ended. Write again to start a new one.')).toBeVisible();
      await expect(rating).toBeVisible();
      const good = rating.getByRole('button', { name: 'Rate this conversation as good' });
      const bad = rating.getByRole('button', { name: 'Rate this conversation as bad' });
      for (const button of [good, bad]) {
        await expect(button.locator('svg')).toBeVisible();
        await expect(button).toHaveText('');
      }
      await good.click();
      await expect(widgetPage.frame.getByText('Thanks for your feedback.')).toBeVisible();
      await expect(rating).toHaveCount(0);
    });

    await test.step('asked once: the question does not come back after another view of the window', async () => {
      await widgetPage.header.getByRole('button', { name: 'Request a call back' }).click();
      await widgetPage.frame.getByRole('button', { name: /^(Back to the chat|Write to us in the chat)$/ }).click();
      await expect(widgetPage.messages.getByText('Thanks for your feedback.')).toBeVisible();
      await expect(rating).toHaveCount(0);
    });

    await test.step('the agent sees the rating on the chat', async () => {
      await expect.poll(async () => (await widget.agentApi.chat(chat.id)).rate).toBe('positive');
    });

    await test.step('writing again starts a new chat: the old question is gone', async () => {
      await widgetPage.say('One more thing');
      await expect(widgetPage.frame.getByText('Thanks for your feedback.')).toHaveCount(0);
      await expect(rating).toHaveCount(0);
    });
  });

  test('widget: the visitor ends the chat from the header after a confirmation, then rates it', async ({ widget, widgetPage }) => {
    const endChat = widgetPage.header.getByRole('button', { name: 'End chat' });
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await expect(endChat).toHaveCount(0);
    await widgetPage.say('Is the shop open on Sunday?');
    const chat = await widget.agentApi.chatWith('Is the shop open on Sunday?');
    await widget.agentApi.say(chat.id, 'From 10 to 16.');
    await expect(widgetPage.message('From 10 to 16.')).toBeVisible();
    const confirmation = widgetPage.frame.getByRole('group', { name: /^End this chat\?/ });

    await test.step('"Keep chatting", or Escape, leaves the chat as it was', async () => {
      await endChat.click();
      await expect(confirmation.getByRole('button', { name: 'End chat' })).toBeFocused();
      await confirmation.getByRole('button', { name: 'Keep chatting' }).click();
      await expect(confirmation).toHaveCount(0);
      await endChat.click();
      // As a visitor does, once the question is there (an Escape before it minimizes the window, as anywhere).
      await expect(confirmation.getByRole('button', { name: 'End chat' })).toBeFocused();
      await widgetPage.page.keyboard.press('Escape');
      await expect(confirmation).toHaveCount(0);
      await expect(widgetPage.textbox).toBeVisible();
      expect((await widget.agentApi.chat(chat.id)).state).not.toBe('closed');
    });

    await test.step('confirmed, the chat is closed for the agent too, and the rating takes the focus', async () => {
      await endChat.click();
      await confirmation.getByRole('button', { name: 'End chat' }).click();
      await expect(widgetPage.messages.getByText('The chat has ended. Write again to start a new one.')).toBeVisible();
      await expect.poll(async () => (await widget.agentApi.chat(chat.id)).state).toBe('closed');
      await expect(endChat).toHaveCount(0);
      const bad = widgetPage.frame.getByRole('button', { name: 'Rate this conversation as bad' });
      await expect(widgetPage.frame.getByRole('button', { name: 'Rate this conversation as good' })).toBeFocused();
      await bad.click();
      await expect(widgetPage.frame.getByText('Thanks for your feedback.')).toBeFocused();
      await expect.poll(async () => (await widget.agentApi.chat(chat.id)).rate).toBe('negative');
    });
  });
});
