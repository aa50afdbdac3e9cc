import { uniqueSuffix } from '../support/admin-api.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';

test.describe('console: a new server', () => {
  test('console: whoever holds the admin API token creates the first admin and lands in the console with Manage', async ({ page }) => {
    await page.goto('/console/');
    await page.getByRole('button', { name: 'New server? Create the first admin' }).click();
    const form = page.getByRole('form', { name: 'Create the first admin' });
    await form.getByLabel('Admin API token').fill('not-the-token');
    await form.getByLabel('Your name').fill('Olivia Owner');
    const email = `owner-${uniqueSuffix()}@example.com`;
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password (at least 8 characters)').fill('a long password');
    await form.getByRole('button', { name: 'Create and sign in' }).click();
    await expect(form.getByRole('alert')).toHaveText('That is not the admin API token of this server.');

    await form.getByLabel('Admin API token').fill(e2eEnv().adminToken);
    await form.getByRole('button', { name: 'Create and sign in' }).click();
    await expect(page.getByRole('button', { name: 'Manage' })).toBeVisible();
  });
});
