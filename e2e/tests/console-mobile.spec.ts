import { expect, test } from '../support/fixtures.ts';

test.describe('console: on a phone', () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test('console: at 375x667 the agent can read a chat and reply', async ({ workspace, consolePage }) => {
    const { agent, channel, integrator } = workspace;
    const finn = workspace.customer({ name: 'Finn Phone' });
    await finn.say('Do you ship to Norway?');
    await consolePage.login(agent.email, agent.password);

    await test.step('the inbox fills the screen; opening a chat shows the conversation instead', async () => {
      await consolePage.openChat('Finn Phone');
      await expect(consolePage.inbox).toBeHidden();
      await expect(consolePage.message('Do you ship to Norway?')).toBeInViewport();
      await expect(consolePage.replyBox).toBeInViewport();
    });

    await test.step('the reply goes out and is delivered', async () => {
      await consolePage.reply('Yes, in 3 to 5 days');
      await expect(consolePage.message('Yes, in 3 to 5 days').getByText('delivered')).toBeVisible();
      expect(integrator.messagesFor(channel.public_id)).toHaveLength(1);
      await consolePage.page.screenshot({ path: test.info().outputPath('console-mobile.png') });
    });

    await test.step('the client details open as a drawer, and Back returns to the inbox', async () => {
      await consolePage.conversation.getByRole('button', { name: 'Details' }).click();
      await expect(consolePage.clientDetails).toBeVisible();
      await consolePage.clientDetails.getByRole('button', { name: 'Close details' }).click();
      await expect(consolePage.clientDetails).toBeHidden();
      await consolePage.conversation.getByRole('button', { name: 'Inbox' }).click();
      await expect(consolePage.chat('Finn Phone')).toBeVisible();
    });
  });
});
