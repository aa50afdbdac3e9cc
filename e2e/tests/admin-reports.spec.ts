import fs from 'node:fs/promises';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { recordCspViolations } from '../support/csp-violations.ts';
import { Customer } from '../support/customer.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';

test.describe('admin: reports', () => {
  test("admin: the Reports screen shows a channel's chats, missed chats, the agents' table and the days as CSV", async ({
    admin,
    adminAgent,
    adminAgentApi,
    adminPage,
  }, testInfo) => {
    const integrator = await FakeIntegrator.start();
    const channel = await admin.createChatApiChannel({
      name: `Reports ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [adminAgent.id],
    });
    await test.step('three customers write: two are answered, one is closed unanswered', async () => {
      for (const [id, text] of [
        ['r-1', 'Where is my parcel?'],
        ['r-2', 'Can I change my order?'],
        ['r-3', 'Hello?'],
      ] as const)
        await new Customer(channel.endpoint!, { id, name: `Customer ${id}` }).say(text);
      const answered = [await adminAgentApi.chatWith('Where is my parcel?'), await adminAgentApi.chatWith('Can I change my order?')];
      for (const chat of answered) await adminAgentApi.say(chat.id, 'Let me look.');
      await adminAgentApi.close(answered[0]!.id);
      await adminAgentApi.close((await adminAgentApi.chatWith('Hello?')).id);
    });

    const cspViolations = await recordCspViolations(adminPage.page);
    await adminPage.open(adminAgent, 'Reports');
    const panel = adminPage.panel;
    await panel.getByLabel('Channel').selectOption(channel.name);
    const numbers = panel.getByRole('definition');
    await expect(numbers.nth(0)).toHaveText('3');
    await expect(numbers.nth(1)).toHaveText('1 (33%)');
    await expect(panel.getByRole('img', { name: /Chats per day from .*: 3 in all/ })).toBeVisible();
    const agentRow = panel.getByRole('table', { name: 'Chats per agent' }).getByRole('row', { name: /Ada Admin/ });
    await expect(agentRow.getByRole('cell').first()).toHaveText('2');

    await test.step('the CSV holds one row per day, today with its three chats', async () => {
      const downloading = adminPage.page.waitForEvent('download');
      await panel.getByRole('button', { name: 'Download CSV' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^report-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
      const rows = (await fs.readFile(await download.path(), 'utf8')).trim().split('\r\n');
      expect(rows[0]).toBe('date,chats,missed');
      expect(rows).toHaveLength(31);
      expect(rows.at(-1)).toMatch(/^\d{4}-\d{2}-\d{2},3,1$/);
    });

    // The panel scrolls inside the page: a tall window shows the whole screen at once.
    await adminPage.page.setViewportSize({ width: 1280, height: 1400 });
    await adminPage.page.screenshot({ path: testInfo.outputPath('reports.png') });
    await expectNoSeriousA11yViolations(adminPage.page, 'the Reports screen');
    expect(await cspViolations()).toEqual([]);

    await test.step('an unknown time zone is refused with the reason', async () => {
      await panel.getByLabel('Time zone').fill('Mars/Olympus');
      await panel.getByLabel('Time zone').press('Enter');
      await expect(adminPage.alert()).toContainText('unknown time zone "Mars/Olympus"');
    });
    await integrator.close();
  });
});
