import fs from 'node:fs/promises';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { ConsolePage } from '../support/console-page.ts';
import { holdDatabaseReader } from '../support/database-reader.ts';
import { Customer } from '../support/customer.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';

// Issue 21: a customer's data on request, from the side panel; how long chats are kept, in the channel's form.
test.describe("console: a customer's data", () => {
  test('console: an admin exports a customer as JSON, then erases them after a confirmation that names them', async ({
    admin,
    adminAgent,
    adminAgentApi,
    adminPage,
    browser,
  }, testInfo) => {
    const integrator = await FakeIntegrator.start();
    const plainAgent = await admin.createAgent('Pia Plain');
    const channel = await admin.createChatApiChannel({
      name: `Privacy ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [adminAgent.id, plainAgent.id],
    });
    const customer = new Customer(channel.endpoint!, { id: `p-${uniqueSuffix()}`, name: 'Pat Privacy' });
    await customer.say('My address is 12 Hidden Lane');
    const chat = await adminAgentApi.chatWith('My address is 12 Hidden Lane');

    const consolePage = adminPage.console;
    await consolePage.login(adminAgent.email, adminAgent.password);
    await consolePage.openChat('Pat Privacy');
    const details = consolePage.clientDetails;

    await test.step('Export data downloads everything stored about the customer', async () => {
      const downloading = consolePage.page.waitForEvent('download');
      await details.getByRole('button', { name: 'Export data' }).click();
      const download = await downloading;
      const exported = JSON.parse(await fs.readFile(await download.path(), 'utf8'));
      expect(exported.client).toMatchObject({ name: 'Pat Privacy', external_key: chat.client.id });
      expect(exported.chats[0].messages.map((m: { text: string }) => m.text)).toEqual(['My address is 12 Hidden Lane']);
    });

    await test.step('Erase customer asks first, naming the customer, and can be cancelled', async () => {
      await details.getByRole('button', { name: 'Erase customer' }).click();
      const asking = details.getByRole('group', { name: 'Erase customer' });
      await expect(asking).toContainText(`Erase Pat Privacy (customer id ${chat.client.id}) of ${channel.name} for good?`);
      await expect(asking.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await consolePage.page.screenshot({ path: testInfo.outputPath('erase-confirmation.png') });
      await expectNoSeriousA11yViolations(consolePage.page, 'the side panel asking to erase a customer');
      await asking.getByRole('button', { name: 'Cancel' }).click();
      await expect(asking).toBeHidden();
      expect(
        (await fetch(`${e2eEnv().baseUrl}/api/v1/chats/${chat.id}`, { headers: { authorization: `Bearer ${adminAgent.token}` } })).status,
      ).toBe(200);
    });

    const plainContext = await browser.newContext();
    const plainConsole = new ConsolePage(await plainContext.newPage());
    await test.step('a plain agent sees neither action', async () => {
      await plainConsole.login(plainAgent.email, plainAgent.password);
      await plainConsole.openChat('Pat Privacy');
      await expect(plainConsole.clientDetails.getByText(chat.client.id, { exact: true })).toBeVisible();
      await expect(plainConsole.clientDetails.getByRole('button', { name: 'Export data' })).toHaveCount(0);
      await expect(plainConsole.clientDetails.getByRole('button', { name: 'Erase customer' })).toHaveCount(0);
    });

    await test.step('confirmed, the customer and their chat are gone from the console and the API', async () => {
      await adminPage.page.bringToFront();
      await details.getByRole('button', { name: 'Erase customer' }).click();
      await details.getByRole('group', { name: 'Erase customer' }).getByRole('button', { name: 'Erase Pat Privacy' }).click();
      await expect(consolePage.chat('Pat Privacy')).toHaveCount(0);
      await expect(consolePage.conversation.getByRole('heading', { name: 'Pat Privacy' })).toHaveCount(0);
      await expect(consolePage.page.getByRole('status').filter({ hasText: "Pat Privacy's data is erased" })).toBeVisible();
      expect(
        (await fetch(`${e2eEnv().baseUrl}/api/v1/chats/${chat.id}`, { headers: { authorization: `Bearer ${adminAgent.token}` } })).status,
      ).toBe(404);
      const { erasures } = await admin.get<{ erasures: { client_id: string; actor: string }[] }>('/api/v1/erasures');
      expect(erasures[0]).toMatchObject({ client_id: chat.client.id, actor: `agent ${adminAgent.id} (${adminAgent.email})` });
    });

    await test.step("the other agent's console, open on that chat, lets it go too", async () => {
      await expect(plainConsole.chat('Pat Privacy')).toHaveCount(0);
      await expect(plainConsole.conversation.getByRole('heading', { name: 'Pat Privacy' })).toHaveCount(0);
      await plainContext.close();
    });
    await integrator.close();
  });

  test('console: while a backup reads the database, an erasure says the files still hold a copy, and the erasure log shows it pending, then emptied', async ({
    admin,
    adminAgent,
    adminAgentApi,
    adminPage,
  }, testInfo) => {
    const integrator = await FakeIntegrator.start();
    const channel = await admin.createChatApiChannel({
      name: `Backup ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [adminAgent.id],
    });
    const customer = new Customer(channel.endpoint!, { id: `b-${uniqueSuffix()}`, name: 'Bea Backup' });
    await customer.say('My phone is 0170 5551234');
    const chat = await adminAgentApi.chatWith('My phone is 0170 5551234');
    const consolePage = adminPage.console;
    await consolePage.login(adminAgent.email, adminAgent.password);
    await consolePage.openChat('Bea Backup');

    const reader = holdDatabaseReader();
    try {
      await test.step('the erasure (202 after the server tried for 5 s) says the data is deleted and the files are emptied later', async () => {
        const details = consolePage.clientDetails;
        await details.getByRole('button', { name: 'Erase customer' }).click();
        await details.getByRole('group', { name: 'Erase customer' }).getByRole('button', { name: 'Erase Bea Backup' }).click();
        const notice = consolePage.page.getByRole('status').filter({ hasText: "Bea Backup's data is deleted" });
        await expect(notice).toContainText('the database files still hold a copy for now', { timeout: 15_000 });
        await expect(notice).toContainText('once it is done');
        await expect(consolePage.chat('Bea Backup')).toHaveCount(0);
        await consolePage.page.screenshot({ path: testInfo.outputPath('erasure-pending-notice.png') });
        await expectNoSeriousA11yViolations(consolePage.page, 'the notice of an erasure waiting on a reader');
      });

      await test.step('the erasure log shows it pending while the reader holds on', async () => {
        await adminPage.manageButton.click();
        await adminPage.show('Erasure log');
        const row = adminPage.panel.getByRole('row').filter({ hasText: `Customer ${chat.client.id}` });
        await expect(row).toContainText('Pending: the files hold a copy until a reader (a backup) is done');
        await expect(row).toContainText(`agent ${adminAgent.id} (${adminAgent.email})`);
        await expect(row).toContainText('1 customer, 1 chat, 1 message');
        await consolePage.page.screenshot({ path: testInfo.outputPath('erasure-log-pending.png') });
      });
    } finally {
      reader.release();
    }

    await test.step('once the reader is done, the log shows the files emptied', async () => {
      const row = adminPage.panel.getByRole('row').filter({ hasText: `Customer ${chat.client.id}` });
      await expect(async () => {
        await adminPage.panel.getByRole('button', { name: 'Refresh' }).click();
        await expect(row).toContainText('Complete', { timeout: 500 });
      }).toPass({ timeout: 10_000 });
      await expect(row).not.toContainText('Pending');
      const { erasures } = await admin.get<{ erasures: { client_id: string; state: string; completed_at: string | null }[] }>(
        '/api/v1/erasures',
      );
      expect(erasures.find((e) => e.client_id === chat.client.id)).toMatchObject({ state: 'complete', completed_at: expect.any(String) });
      await consolePage.page.screenshot({ path: testInfo.outputPath('erasure-log-emptied.png') });
    });
    await integrator.close();
  });

  test("admin: a channel's retention is set in days, refused when not positive, and emptied to keep chats forever", async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const integrator = await FakeIntegrator.start();
    const channel = await admin.createChatApiChannel({
      name: `Kept ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [adminAgent.id],
    });
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const retention = adminPage.panel.getByRole('form', { name: 'Keep chats' });
    const days = retention.getByLabel('Days after a chat closes');
    await expect(days).toHaveValue('');

    await days.fill('-2');
    await retention.getByRole('button', { name: 'Save retention' }).click();
    await expect(retention.getByRole('alert')).toContainText('retention_days');
    await days.fill('30');
    await retention.getByRole('button', { name: 'Save retention' }).click();
    await expect(retention.getByText('Closed chats are erased 30 days after they close.')).toBeVisible();
    expect((await admin.getChannel(channel.id)).retention_days).toBe(30);

    await days.fill('');
    await retention.getByRole('button', { name: 'Save retention' }).click();
    await expect(retention.getByText('Closed chats are kept forever.')).toBeVisible();
    expect((await admin.getChannel(channel.id)).retention_days).toBeNull();
    await integrator.close();
  });
});
