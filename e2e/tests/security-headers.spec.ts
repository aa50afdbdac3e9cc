import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { recordCspViolations } from '../support/csp-violations.ts';

// Issue 19: the console and its admin panel run under the server's strict policy without a single violation.
test.describe('console: under its Content-Security-Policy', () => {
  test('console: an admin signs in, opens every Manage section and a widget preview, with no policy violation', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const channel = await admin.createWidgetChannel({ name: `Policy shop ${uniqueSuffix()}`, agentIds: [adminAgent.id] });
    const violations = await recordCspViolations(adminPage.page);
    const consoleResponse = adminPage.page.waitForResponse((r) => new URL(r.url()).pathname === '/console/');

    await test.step('the console page comes with the strict policy', async () => {
      await adminPage.open(adminAgent);
      const headers = (await consoleResponse).headers();
      expect(headers['content-security-policy']).toContain("script-src 'self'");
      expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(headers['x-content-type-options']).toBe('nosniff');
    });

    await test.step('every section of Manage renders', async () => {
      for (const section of ['Departments', 'Bots', 'Agents', 'Delivery log', 'Erasure log', 'Reports', 'Channels'] as const)
        await adminPage.show(section);
    });

    await test.step("the widget channel's page shows its live preview", async () => {
      await adminPage.channelLink(channel.name).click();
      const preview = adminPage.page.frameLocator(`iframe[title="Preview of the ${channel.name} widget"]`);
      await expect(preview.getByRole('button', { name: /^Open chat/ })).toBeVisible();
    });

    await test.step('the inbox and the live socket work', async () => {
      await adminPage.manageButton.click();
      await expect(adminPage.console.inbox).toBeVisible();
    });

    expect(await violations()).toEqual([]);
  });
});
