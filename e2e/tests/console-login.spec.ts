import { expect, test } from '../support/fixtures.ts';

test.describe('console: login and presence', () => {
  test('console: a wrong password shows the API error; a login survives a reload and ends with logout', async ({
    workspace,
    consolePage,
  }) => {
    const { agent } = workspace;

    await test.step('a wrong password is refused with the message of the API', async () => {
      await consolePage.goto();
      await consolePage.submitLogin(agent.email, 'not-the-password');
      await expect(consolePage.loginError()).toHaveText('Wrong e-mail or password');
      await expect(consolePage.inbox).toHaveCount(0);
    });

    await test.step('the right password opens the console', async () => {
      await consolePage.submitLogin(agent.email, agent.password);
      await expect(consolePage.inbox).toBeVisible();
      await expect(consolePage.page.getByText(agent.name)).toBeVisible();
    });

    await test.step('a reload keeps the agent logged in', async () => {
      await consolePage.page.reload();
      await expect(consolePage.inbox).toBeVisible();
      await expect(consolePage.page.getByRole('button', { name: 'Sign in' })).toHaveCount(0);
    });

    await test.step('logout returns to the login form, and a reload does not bring the console back', async () => {
      await consolePage.logout();
      await consolePage.page.reload();
      await expect(consolePage.page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    });
  });

  test('console: the presence toggle makes the channel status answer 1, then 0', async ({ workspace, consolePage }) => {
    const statusUrl = workspace.channel.status_url!;
    const channelStatus = async () => (await (await fetch(statusUrl)).text()).trim();

    await consolePage.login(workspace.agent.email, workspace.agent.password);
    await test.step('a new agent is offline: the channel is unavailable', async () => {
      await expect(consolePage.presence).toHaveAttribute('aria-checked', 'false');
      expect(await channelStatus()).toBe('0');
    });

    await test.step('going online makes the channel available', async () => {
      await consolePage.setPresence('online');
      await expect.poll(channelStatus).toBe('1');
    });

    await test.step('the presence is kept across a reload', async () => {
      await consolePage.page.reload();
      await expect(consolePage.presence).toHaveAttribute('aria-checked', 'true');
    });

    await test.step('going offline makes it unavailable again', async () => {
      await consolePage.setPresence('offline');
      await expect.poll(channelStatus).toBe('0');
    });
  });
});
