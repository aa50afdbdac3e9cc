import { setPageHidden } from '../support/page-visibility.ts';
import { expect, test } from '../support/fixtures.ts';

test.describe('console: unread counts', () => {
  test('console: counts come from the server, rise live, clear when the chat is read on a visible tab, and survive a reload', async ({
    workspace,
    consolePage,
    page,
  }) => {
    const { agent } = workspace;
    const ann = workspace.customer({ name: 'Ann Unread' });
    const ben = workspace.customer({ name: 'Ben Unread' });
    await ann.say('Hello?');
    await ann.say('Is anyone there?');
    await ben.say('A question about sizes');

    await test.step('messages written before the login are counted per chat, per tab and in the title', async () => {
      await consolePage.login(agent.email, agent.password);
      await expect(consolePage.chat('Ann Unread')).toContainText('2 unread');
      await expect(consolePage.chat('Ben Unread')).toContainText('1 unread');
      await expect(consolePage.tab('Open')).toHaveAccessibleName(/3 unread/);
      await expect(page).toHaveTitle("(3) Agents' console");
    });

    await test.step('a new client message raises the count live', async () => {
      await ann.say('Hello again');
      await expect(consolePage.chat('Ann Unread')).toContainText('3 unread');
      await expect(page).toHaveTitle("(4) Agents' console");
      await page.screenshot({ path: test.info().outputPath('unread-inbox.png') });
    });

    await test.step('opening the chat reads it: its badge goes, the others stay', async () => {
      await consolePage.openChat('Ann Unread');
      await expect(consolePage.chat('Ann Unread')).not.toContainText('unread');
      await expect(consolePage.tab('Open')).toHaveAccessibleName(/1 unread/);
      await expect(page).toHaveTitle("(1) Agents' console");
    });

    await test.step('a message to the open chat on a hidden tab is unread until the tab is shown again', async () => {
      await setPageHidden(page, true);
      await ann.say('Are you still there?');
      await expect(consolePage.message('Are you still there?')).toBeAttached();
      await expect(consolePage.chat('Ann Unread')).toContainText('1 unread');
      await expect(page).toHaveTitle("(2) Agents' console");
      await setPageHidden(page, false);
      await expect(consolePage.chat('Ann Unread')).not.toContainText('unread');
      await expect(page).toHaveTitle("(1) Agents' console");
    });

    await test.step('after a reload the server still knows what was read', async () => {
      await page.reload();
      await expect(consolePage.chat('Ben Unread')).toContainText('1 unread');
      await expect(consolePage.chat('Ann Unread')).toContainText('Are you still there?');
      await expect(consolePage.chat('Ann Unread')).not.toContainText('unread');
      await expect(page).toHaveTitle("(1) Agents' console");
    });
  });
});
