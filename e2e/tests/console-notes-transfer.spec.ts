import { uniqueSuffix } from '../support/admin-api.ts';
import { ConsolePage } from '../support/console-page.ts';
import { Customer } from '../support/customer.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';
import { expect, test } from '../support/fixtures.ts';

test.describe('console: private notes and transfer', () => {
  test('console: a private note looks apart, is kept as text, and never reaches the customer', async ({ workspace, consolePage, page }) => {
    const { agent, channel, integrator } = workspace;
    await workspace.customer().say('Where is my parcel?');
    await consolePage.login(agent.email, agent.password);
    await consolePage.openChat('Ann Customer');

    await test.step('the toggle turns the reply box into a note box; Enter saves the note', async () => {
      await consolePage.conversation.getByRole('checkbox', { name: 'Private note' }).check();
      const noteBox = consolePage.conversation.getByRole('textbox', { name: 'Private note for agents' });
      await noteBox.fill('<b>Refund approved</b> by finance');
      await noteBox.press('Enter');
      const note = consolePage.message('Refund approved');
      await expect(note).toContainText('Private note');
      await expect(note).toContainText('<b>Refund approved</b> by finance');
      await expect(note.locator('b')).toHaveCount(0);
    });

    await test.step('back to replies: the customer gets the reply and never the note', async () => {
      await consolePage.conversation.getByRole('checkbox', { name: 'Private note' }).uncheck();
      await consolePage.reply('It is on its way.');
      await expect
        .poll(() => integrator.messagesFor(channel.public_id).map((m) => ('text' in m.message ? m.message.text : undefined)))
        .toContain('It is on its way.');
      expect(JSON.stringify(integrator.received)).not.toContain('Refund approved');
    });
    await page.screenshot({ path: test.info().outputPath('private-note.png') });
  });

  test('console: a chat handed to a colleague shows in their console at once, with the note and the history', async ({
    admin,
    browser,
    consolePage,
    page,
  }) => {
    const integrator = await FakeIntegrator.start();
    const alice = await admin.createAgent('Alice Agent');
    const bob = await admin.createAgent('Bob Agent');
    const channel = await admin.createChatApiChannel({
      name: `Shop ${uniqueSuffix()}`,
      webhookUrl: integrator.url,
      agentIds: [alice.id, bob.id],
    });
    await new Customer(channel.endpoint!, { id: 7, name: 'Nina Customer' }).say('I want to change my billing address');

    const bobContext = await browser.newContext({ baseURL: e2eEnv().baseUrl });
    const bobConsole = new ConsolePage(await bobContext.newPage());
    await bobConsole.login(bob.email, bob.password);
    await consolePage.login(alice.email, alice.password);
    await consolePage.openChat('Nina Customer');

    await test.step('Alice passes the chat to Bob with a note', async () => {
      await consolePage.conversation.getByRole('button', { name: 'Transfer' }).click();
      const form = consolePage.conversation.getByRole('form', { name: 'Transfer the chat' });
      const bobOption = form.locator('option', { hasText: 'Bob Agent' });
      await expect(bobOption).toHaveCount(1);
      await form.getByLabel('To').selectOption((await bobOption.getAttribute('value'))!);
      await form.getByLabel('Note for them (optional)').fill('Billing question, order 1234');
      await page.screenshot({ path: test.info().outputPath('transfer-form.png') });
      await form.getByRole('button', { name: 'Transfer' }).click();
      await expect(form).toBeHidden();
      await expect(consolePage.message('Alice Agent transferred the chat to Bob Agent')).toBeVisible();
    });

    await test.step('Bob is told at once and opens the chat from the notice', async () => {
      const notice = bobConsole.page.getByRole('list', { name: 'Transferred chats' }).getByRole('listitem');
      await expect(notice).toContainText("Alice Agent transferred Nina Customer's chat to you.");
      await expect(notice).toContainText('Billing question, order 1234');
      await bobConsole.page.screenshot({ path: test.info().outputPath('transfer-notice.png') });
      await notice.getByRole('button', { name: 'Open' }).click();
      await expect(bobConsole.message('Alice Agent transferred the chat to Bob Agent')).toBeVisible();
      await expect(bobConsole.message('Billing question, order 1234')).toContainText('Private note');
      await bobConsole.reply('Bob here, I can help with billing.');
      await expect
        .poll(() => integrator.messagesFor(channel.public_id).map((m) => ('text' in m.message ? m.message.text : undefined)))
        .toContain('Bob here, I can help with billing.');
      expect(JSON.stringify(integrator.received)).not.toContain('order 1234');
      await bobConsole.page.screenshot({ path: test.info().outputPath('transfer-received.png') });
    });
    await bobContext.close();
    await integrator.close();
  });
});
