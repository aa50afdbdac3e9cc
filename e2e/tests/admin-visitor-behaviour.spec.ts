import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';

// Issue 24: the admin panel sets when idle chats close and whether agents see visitors' drafts.
test.describe('admin: visitors as they really behave', () => {
  test('admin: a widget channel closes idle chats after 30 minutes and shows agents what visitors type', async ({
    admin,
    adminAgent,
    adminPage,
  }, testInfo) => {
    const name = `Tea shop ${uniqueSuffix()}`;
    await adminPage.open(adminAgent);
    await adminPage.panel.getByRole('button', { name: 'Add channel' }).click();
    await adminPage.panel.getByRole('button', { name: /^Widget/ }).click();
    await adminPage.panel.getByLabel('Channel name').fill(name);
    await adminPage.panel.getByRole('button', { name: 'Create widget' }).click();
    await expect(adminPage.panel.getByRole('heading', { name, level: 3 })).toBeVisible();

    const idle = adminPage.panel.getByRole('form', { name: 'Close idle chats' });
    await idle.getByLabel('Minutes without a message').fill('-3');
    await idle.getByRole('button', { name: 'Save idle chat closing' }).click();
    await expect(idle.getByText(/auto_close_minutes: must be a positive number of minutes/)).toBeVisible();
    await idle.getByLabel('Minutes without a message').fill('30');
    await idle.getByRole('button', { name: 'Save idle chat closing' }).click();
    await expect(idle.getByText('Idle chats close after 30 minutes.')).toBeVisible();

    const preview = adminPage.panel.getByRole('form', { name: 'Typing preview' });
    await preview.getByRole('checkbox', { name: 'Show agents what visitors are typing' }).check();
    await preview.getByRole('button', { name: 'Save typing preview' }).click();
    await expect(preview.getByText('Saved.')).toBeVisible();
    await idle.scrollIntoViewIfNeeded();
    await adminPage.page.screenshot({ path: testInfo.outputPath('visitor-behaviour.png') });

    const { channels } = await admin.get<{ channels: { name: string; auto_close_minutes: number | null; typing_preview?: boolean }[] }>(
      '/api/v1/channels',
    );
    expect(channels.find((c) => c.name === name)).toMatchObject({ auto_close_minutes: 30, typing_preview: true });
  });
});
