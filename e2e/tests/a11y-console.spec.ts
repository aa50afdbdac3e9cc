import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { Customer } from '../support/customer.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';

test.describe('console: accessibility (axe-core, WCAG 2.1 AA)', () => {
  test('console: the login, the inbox and a conversation have no serious violation', async ({ admin, adminAgent, adminPage }) => {
    const integrator = await FakeIntegrator.start();
    const channel = await admin.createChatApiChannel({
      name: `Shop ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [adminAgent.id],
    });
    await new Customer(channel.endpoint!, { id: 7, name: 'Ann Customer' }).say('Where is my order?');
    const consolePage = adminPage.console;

    await consolePage.goto();
    await expect(consolePage.page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectNoSeriousA11yViolations(consolePage.page, 'the login');
    await consolePage.submitLogin(adminAgent.email, 'wrong password');
    await expect(consolePage.loginError()).toBeVisible();
    await expectNoSeriousA11yViolations(consolePage.page, 'the login with its error');

    await consolePage.submitLogin(adminAgent.email, adminAgent.password);
    await expect(consolePage.chat('Ann Customer')).toBeVisible();
    await expectNoSeriousA11yViolations(consolePage.page, 'the inbox');

    await consolePage.openChat('Ann Customer');
    await consolePage.accept();
    await consolePage.reply('It left the warehouse today.');
    await expect(consolePage.message('It left the warehouse today.')).toBeVisible();
    await expectNoSeriousA11yViolations(consolePage.page, 'a conversation');

    await consolePage.closeChat();
    await expectNoSeriousA11yViolations(consolePage.page, 'a closed conversation');
    for (const tab of ['With bot', 'Closed', 'Offline', 'Calls'] as const) {
      await consolePage.showTab(tab);
      await expectNoSeriousA11yViolations(consolePage.page, `the inbox tab ${tab}`);
    }
    await integrator.close();
  });

  test('console: every screen of the admin panel has no serious violation', async ({ admin, adminAgent, adminPage }) => {
    const widget = await admin.createWidgetChannel({ name: `Tea shop ${uniqueSuffix()}`, agentIds: [adminAgent.id] });
    const chatApi = await admin.createChatApiChannel({
      name: `App ${uniqueSuffix()}`,
      webhookUrl: 'http://127.0.0.1:9/hook',
      agentIds: [],
    });
    await admin.createDepartment(`Sales ${uniqueSuffix()}`, [adminAgent.id]);
    await adminPage.open(adminAgent);
    await expect(adminPage.channelLink(widget.name)).toBeVisible();
    await expectNoSeriousA11yViolations(adminPage.page, 'Manage: channels');

    await test.step('adding a channel', async () => {
      await adminPage.panel.getByRole('button', { name: 'Add channel' }).click();
      await adminPage.panel.getByRole('button', { name: /^Widget/ }).click();
      await expect(adminPage.panel.getByLabel('Channel name')).toBeVisible();
      await expectNoSeriousA11yViolations(adminPage.page, 'Manage: add a widget channel');
      await adminPage.panel.getByRole('button', { name: 'Cancel' }).click();
      await adminPage.panel.getByRole('button', { name: /^Chat API/ }).click();
      await expect(adminPage.panel.getByLabel('Channel name')).toBeVisible();
      await expectNoSeriousA11yViolations(adminPage.page, 'Manage: add a Chat API channel');
      await adminPage.panel.getByRole('button', { name: 'Cancel' }).click();
    });

    await test.step("a widget channel's settings: widget, developers, triggers, callbacks, business hours, identity, transcripts", async () => {
      await adminPage.channelLink(widget.name).click();
      await expect(adminPage.panel.getByRole('heading', { name: widget.name, level: 3 })).toBeVisible();
      await adminPage.panel.getByRole('form', { name: 'Triggers' }).getByRole('button', { name: 'Add rule' }).click();
      const preview = adminPage.page.frameLocator(`iframe[title="Preview of the ${widget.name} widget"]`);
      await expect(preview.getByRole('button', { name: /^Open chat/ })).toBeVisible();
      await expectNoSeriousA11yViolations(adminPage.page, 'Manage: a widget channel');
    });

    await test.step("a Chat API channel's settings", async () => {
      await adminPage.panel.getByRole('button', { name: 'All channels' }).click();
      await adminPage.channelLink(chatApi.name).click();
      await expect(adminPage.panel.getByRole('heading', { name: chatApi.name, level: 3 })).toBeVisible();
      await expectNoSeriousA11yViolations(adminPage.page, 'Manage: a Chat API channel');
    });

    for (const section of ['Departments', 'Bots', 'Agents', 'Delivery log', 'Erasure log'] as const) {
      await test.step(section, async () => {
        await adminPage.show(section);
        await adminPage.page.waitForLoadState('networkidle');
        await expectNoSeriousA11yViolations(adminPage.page, `Manage: ${section}`);
      });
    }

    await test.step('editing an agent (with the photo upload)', async () => {
      await adminPage.show('Agents');
      await adminPage.panel
        .getByRole('button', { name: `Edit ${adminAgent.name}` })
        .first()
        .click();
      await expect(adminPage.panel.getByRole('button', { name: 'Save agent' })).toBeVisible();
      await expectNoSeriousA11yViolations(adminPage.page, 'Manage: editing an agent');
    });
  });
});
