import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';

test.describe('admin: on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('admin: at 390 px every section fits the width and the Manage entry is in reach', async ({ admin, adminAgent, adminPage }) => {
    const channel = await admin.createWidgetChannel({ name: `Phone shop ${uniqueSuffix()}`, agentIds: [adminAgent.id] });
    await adminPage.open(adminAgent);
    await expect(adminPage.manageButton).toBeInViewport();
    const pageWidth = () => adminPage.page.evaluate(() => document.documentElement.scrollWidth);

    for (const section of ['Channels', 'Departments', 'Bots', 'Agents', 'Delivery log', 'Erasure log', 'Reports'] as const) {
      await adminPage.show(section);
      expect(await pageWidth(), `${section} overflows`).toBeLessThanOrEqual(390);
      await adminPage.page.screenshot({ path: test.info().outputPath(`admin-${section}.png`), fullPage: true });
    }

    await adminPage.show('Channels');
    await adminPage.channelLink(channel.name).click();
    await expect(adminPage.panel.getByRole('button', { name: 'Copy Embed snippet' })).toBeVisible();
    // The settings cards that read their own data (business hours, identity, transcripts) have answered.
    await expect(adminPage.panel.getByTestId('business-hours-now')).toBeVisible();
    await expect(adminPage.panel.getByRole('button', { name: 'Show identity secret' })).toBeVisible();
    await expect(adminPage.panel.getByRole('button', { name: 'Save transcript settings' })).toBeVisible();
    await adminPage.panel.getByRole('form', { name: 'Callback settings' }).getByRole('button', { name: 'Add hours on Monday' }).click();
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    await adminPage.page.screenshot({ path: test.info().outputPath('admin-widget.png'), fullPage: true });

    await adminPage.panel.getByRole('button', { name: 'Back to chats' }).click();
    await expect(adminPage.console.inbox).toBeVisible();
  });
});
