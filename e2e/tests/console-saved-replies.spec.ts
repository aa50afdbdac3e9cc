import { uniqueSuffix } from '../support/admin-api.ts';
import { Customer } from '../support/customer.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';
import { expect, test } from '../support/fixtures.ts';

test.describe('console: saved replies', () => {
  test('console: saved replies are managed in Manage and in the profile, and / in the reply box inserts one with names filled in', async ({
    admin,
    consolePage,
    page,
  }) => {
    const integrator = await FakeIntegrator.start();
    const ada = await admin.createAgent('Ada Admin', 'admin');
    const channel = await admin.createChatApiChannel({ name: `Shop ${uniqueSuffix()}`, webhookUrl: integrator.url, agentIds: [ada.id] });
    await new Customer(channel.endpoint!, { id: 11, name: 'Nina Customer' }).say('Is my parcel on its way?');
    await consolePage.login(ada.email, ada.password);

    await test.step('an admin adds a team reply in Manage', async () => {
      await page.getByRole('button', { name: 'Manage' }).click();
      await page.getByRole('navigation', { name: 'Manage sections' }).getByRole('button', { name: 'Saved replies' }).click();
      const team = page.getByRole('region', { name: "Team's saved replies" });
      await team.getByLabel('Shortcut').fill('hello');
      await team.getByLabel('Text').fill('Hello {client.name}, this is {agent.name}.');
      await team.getByRole('button', { name: 'Add saved reply' }).click();
      await expect(team.getByRole('listitem').filter({ hasText: '/hello' })).toBeVisible();
      await team.getByLabel('Shortcut').fill('good bye');
      await team.getByLabel('Text').fill('Bye');
      await team.getByRole('button', { name: 'Add saved reply' }).click();
      await expect(team.getByRole('alert')).toContainText('shortcut: must be one word');
      await page.screenshot({ path: test.info().outputPath('saved-replies-manage.png') });
      await page.getByRole('button', { name: 'Back to chats' }).click();
    });

    await test.step('the agent adds an own reply in the profile', async () => {
      await page.getByRole('button', { name: /your profile/ }).click();
      const mine = page.getByRole('region', { name: 'My saved replies' });
      await mine.getByLabel('Shortcut').fill('ship');
      await mine.getByLabel('Text').fill('It ships tomorrow, order {order.id}.');
      await mine.getByRole('button', { name: 'Add saved reply' }).click();
      await expect(mine.getByRole('listitem').filter({ hasText: '/ship' })).toBeVisible();
      await page.getByRole('button', { name: /your profile/ }).click();
    });

    await test.step('/ lists both, filtered as typed; Enter inserts with the placeholders filled in', async () => {
      await consolePage.openChat('Nina Customer');
      await consolePage.replyBox.fill('/');
      const picker = page.getByRole('listbox', { name: 'Saved replies' });
      await expect(picker.getByRole('option')).toHaveCount(2);
      await consolePage.replyBox.fill('/shi');
      await expect(picker.getByRole('option')).toHaveCount(1);
      await consolePage.replyBox.press('Enter');
      await expect(consolePage.replyBox).toHaveValue('It ships tomorrow, order {order.id}.');

      await consolePage.replyBox.fill('/');
      await expect(picker.getByRole('option')).toHaveCount(2);
      await page.screenshot({ path: test.info().outputPath('saved-replies-picker.png') });
      // Ordered by shortcut: /hello first, then /ship; the arrows go round.
      await consolePage.replyBox.press('ArrowDown');
      await consolePage.replyBox.press('ArrowDown');
      await consolePage.replyBox.press('Enter');
      await expect(consolePage.replyBox).toHaveValue('Hello Nina Customer, this is Ada Admin.');
      await consolePage.replyBox.press('Enter');
      await expect(consolePage.replyBox).toHaveValue('');
      await expect
        .poll(() => integrator.messagesFor(channel.public_id).map((m) => ('text' in m.message ? m.message.text : undefined)))
        .toContain('Hello Nina Customer, this is Ada Admin.');
    });
    await integrator.close();
  });
});
