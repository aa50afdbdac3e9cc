import fs from 'node:fs/promises';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { ConsolePage } from '../support/console-page.ts';
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
