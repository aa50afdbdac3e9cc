import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';

test.describe('admin: the sites a widget channel allows', () => {
  test('admin: lists the sites that may show the chat, refuses what is not an origin, and the preview still opens the chat', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const channel = await admin.createWidgetChannel({ name: `Sites ${uniqueSuffix()}`, agentIds: [adminAgent.id] });
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const form = adminPage.panel.getByRole('form', { name: 'Sites that may show the chat' });
    await expect(form.getByText('No sites are listed: the chat window opens on any site that has the embed code.')).toBeVisible();

    await form.getByLabel('Sites, one per line').fill('https://shop.example.com/\nhttps://www.shop.example.com/checkout');
    await form.getByRole('button', { name: 'Save sites' }).click();
    await expect(form.getByRole('alert')).toHaveText(/^Invalid body: allowed_sites\.1: must be an origin such as https:\/\/shop\.example/);
    expect((await admin.getChannel(channel.id)).allowed_sites).toEqual([]);

    await form.getByLabel('Sites, one per line').fill('https://Shop.Example.com/\nhttps://www.shop.example.com');
    await form.getByRole('button', { name: 'Save sites' }).click();
    await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expect(form.getByText('The chat window opens only on pages of these sites')).toBeVisible();
    await expect(form.getByLabel('Sites, one per line')).toHaveValue('https://shop.example.com\nhttps://www.shop.example.com');
    expect((await admin.getChannel(channel.id)).allowed_sites).toEqual(['https://shop.example.com', 'https://www.shop.example.com']);

    // The console's own preview is the service's page: it may always frame the chat.
    const preview = adminPage.page.frameLocator(`iframe[title="Preview of the ${channel.name} widget"]`);
    const previewFrame = adminPage.page.locator(`iframe[title="Preview of the ${channel.name} widget"]`);
    await previewFrame.scrollIntoViewIfNeeded();
    await preview.getByRole('button', { name: /^Open chat/ }).click();
    await expect(preview.frameLocator('iframe[title="Chat window"]').getByRole('heading', { name: channel.name })).toBeVisible();
  });
});
