import type { Page } from '@playwright/test';
import { setPageHidden } from '../support/page-visibility.ts';
import { expect, test } from '../support/fixtures.ts';

/** Counts the chimes the console starts: each chime starts two WebAudio oscillators. */
async function countChimes(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const started = { count: 0 };
    Object.assign(window, { e2eChimeNotes: started });
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: Parameters<OscillatorNode['start']>) {
      started.count += 1;
      return start.apply(this, args);
    };
  });
}
const chimes = (page: Page) => page.evaluate(() => (window as unknown as { e2eChimeNotes: { count: number } }).e2eChimeNotes.count / 2);

test.describe('console: sound and title alerts', () => {
  test('console: a new chat and a message away from the open chat chime and count in the title; the switch is kept per agent', async ({
    admin,
    workspace,
    consolePage,
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => void (/audio/i.test(msg.text()) && errors.push(msg.text())));
    await countChimes(page);
    const { agent } = workspace;
    await consolePage.login(agent.email, agent.password);
    const sound = page.getByRole('button', { name: 'Sound', exact: true });
    // Opt-in: off until the agent turns it on.
    await expect(sound).toHaveAttribute('aria-pressed', 'false');
    await sound.click();
    await expect(sound).toHaveAttribute('aria-pressed', 'true');

    await test.step('a new chat chimes once and shows in the title', async () => {
      await workspace.customer({ name: 'Cleo Chime' }).say('Hello there');
      await expect(consolePage.chat('Cleo Chime')).toBeVisible();
      await expect.poll(() => chimes(page)).toBe(1);
      await expect(page).toHaveTitle("(1) Agents' console");
    });

    await test.step('a message to the chat on screen is silent; on a hidden tab it chimes', async () => {
      await consolePage.openChat('Cleo Chime');
      await expect(page).toHaveTitle("Agents' console");
      const cleo = workspace.customer({ id: 1001, name: 'Cleo Chime' });
      await cleo.say('Seen at once');
      await expect(consolePage.message('Seen at once')).toBeVisible();
      await page.waitForTimeout(1_600); // past the quiet interval, so a chime now would be counted
      expect(await chimes(page)).toBe(1);
      await setPageHidden(page, true);
      await cleo.say('Seen later');
      await expect.poll(() => chimes(page)).toBe(2);
      await expect(page).toHaveTitle("(1) Agents' console");
      await setPageHidden(page, false);
      await expect(page).toHaveTitle("Agents' console");
    });

    await test.step('with the sound off, a new chat only counts in the title; the choice survives a reload', async () => {
      await sound.click();
      await expect(sound).toHaveAttribute('aria-pressed', 'false');
      await page.screenshot({ path: test.info().outputPath('sound-off.png') });
      await page.waitForTimeout(1_600);
      await workspace.customer({ name: 'Dan Quiet' }).say('Anyone?');
      await expect(consolePage.chat('Dan Quiet')).toBeVisible();
      await expect(page).toHaveTitle("(1) Agents' console");
      expect(await chimes(page)).toBe(2);
      await page.reload();
      await expect(sound).toHaveAttribute('aria-pressed', 'false');
    });

    await test.step('another agent in the same browser has their own switch, off until they choose', async () => {
      await sound.click();
      await expect(sound).toHaveAttribute('aria-pressed', 'true');
      const colleague = await admin.createAgent('Cora Colleague');
      await consolePage.logout();
      await consolePage.submitLogin(colleague.email, colleague.password);
      await expect(sound).toHaveAttribute('aria-pressed', 'false');
    });
    expect(errors).toEqual([]);
  });
});
