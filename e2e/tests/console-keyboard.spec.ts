import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { expect, test } from '../support/fixtures.ts';

test.describe('console: keyboard', () => {
  test('console: shortcuts move between chats, send, leave the reply box and list themselves; the tabs fit one row at 1280 px', async ({
    workspace,
    consolePage,
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const name of ['Amy Keys', 'Bo Keys', 'Cy Keys']) await workspace.customer({ name }).say(`Hello from ${name}`);
    await consolePage.login(workspace.agent.email, workspace.agent.password);
    await expect(consolePage.chat('Amy Keys')).toBeVisible();
    const heading = (name: string) => consolePage.conversation.getByRole('heading', { name, exact: true });

    await test.step('the five inbox tabs sit on one row', async () => {
      const tops = await consolePage.inbox.getByRole('tab').evaluateAll((tabs) => tabs.map((t) => t.getBoundingClientRect().top));
      expect(tops).toHaveLength(5);
      expect(new Set(tops).size).toBe(1);
      const inbox = (await consolePage.inbox.boundingBox())!;
      const calls = (await consolePage.tab('Calls').boundingBox())!;
      expect(calls.x + calls.width).toBeLessThanOrEqual(inbox.x + inbox.width);
    });

    await test.step('j and k walk the list (newest first), Alt+arrows too', async () => {
      await page.keyboard.press('j');
      await expect(heading('Cy Keys')).toBeVisible();
      await page.keyboard.press('j');
      await expect(heading('Bo Keys')).toBeVisible();
      await page.keyboard.press('k');
      await expect(heading('Cy Keys')).toBeVisible();
      await page.keyboard.press('Alt+ArrowDown');
      await expect(heading('Bo Keys')).toBeVisible();
    });

    await test.step('r goes to the reply box, where letters are text and Ctrl+Enter sends', async () => {
      await page.keyboard.press('r');
      await expect(consolePage.replyBox).toBeFocused();
      await page.keyboard.type('just kidding, ok');
      await expect(heading('Bo Keys')).toBeVisible();
      await page.keyboard.press('Control+Enter');
      await expect(consolePage.message('just kidding, ok')).toBeVisible();
      await expect(consolePage.replyBox).toHaveValue('');
    });

    await test.step('Alt+ArrowDown from the reply box opens the next chat; Escape leaves the box for the list', async () => {
      // The reply moved Bo's chat to the top: Cy's comes next.
      await expect(consolePage.inbox.getByRole('listitem').first()).toContainText('Bo Keys');
      await page.keyboard.press('Alt+ArrowDown');
      await expect(heading('Cy Keys')).toBeVisible();
      await expect(consolePage.replyBox).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(consolePage.replyBox).not.toBeFocused();
      await expect(consolePage.chat('Cy Keys').getByRole('button')).toBeFocused();
      await page.keyboard.press('j');
      await expect(heading('Amy Keys')).toBeVisible();
      await expect(consolePage.chat('Amy Keys').getByRole('button')).toBeFocused();
    });

    await test.step('/ goes to the search box, where it is typed as text', async () => {
      await page.keyboard.press('/');
      const search = page.getByRole('searchbox', { name: 'Search chats' });
      await expect(search).toBeFocused();
      await page.keyboard.type('a/b');
      await expect(search).toHaveValue('a/b');
      await page.keyboard.press('Escape');
      await search.blur();
    });

    await test.step('? lists the shortcuts in a dialog that Escape closes', async () => {
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('row', { name: /Alt\+↓ or j/ })).toContainText('Next chat');
      await page.screenshot({ path: test.info().outputPath('shortcuts-dialog.png') });
      await expectNoSeriousA11yViolations(page, 'the shortcuts dialog');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
    });
    await expectNoSeriousA11yViolations(page, 'the console with its new controls');
    await page.screenshot({ path: test.info().outputPath('console-keyboard.png') });
  });
});
