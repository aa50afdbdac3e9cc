import type { WidgetAppearanceView, WidgetSettings } from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { e2eEnv } from '../support/e2e-env.ts';

test.describe('admin: widget look and language', () => {
  test('admin: colour, side, title and greeting change the live preview as typed, and saving keeps them', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const channel = await admin.createWidgetChannel({ name: `Look ${uniqueSuffix()}`, agentIds: [] });
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const form = adminPage.panel.getByRole('form', { name: 'Look and language' });
    const preview = adminPage.panel.getByRole('figure', { name: 'Preview of the widget' });
    const previewBox = async () => (await preview.boundingBox())!;

    await test.step('the preview starts with the defaults: the channel name, white on blue, on the right', async () => {
      await expect(preview.getByText(channel.name)).toBeVisible();
      await expect(preview.getByText('Send', { exact: true })).toHaveCSS('background-color', 'rgb(36, 87, 197)');
      await expect(preview.getByText(channel.name)).toHaveCSS('color', 'rgb(255, 255, 255)');
      await expect(preview.getByText('No greeting: the chat opens empty.')).toBeVisible();
    });

    await test.step('a light accent gets black text, in the preview at once', async () => {
      await form.getByLabel('Accent colour', { exact: true }).fill('#FFD400');
      await expect(preview.getByText('Send', { exact: true })).toHaveCSS('background-color', 'rgb(255, 212, 0)');
      await expect(preview.getByText(channel.name)).toHaveCSS('color', 'rgb(0, 0, 0)');
      await expect(preview.getByText('Text on the accent: black')).toBeVisible();
    });

    await test.step('title, launcher label and greeting show as typed, markup as text', async () => {
      await form.getByLabel('Chat title', { exact: true }).fill('Tea help');
      await form.getByLabel('Launcher label', { exact: true }).fill('Ask us');
      await form.getByLabel('Greeting', { exact: true }).fill('Hello! <b>Ask</b> about teas.');
      await expect(preview.getByText('Tea help')).toBeVisible();
      await expect(preview.getByText('Hello! <b>Ask</b> about teas.')).toBeVisible();
      await expect(preview.locator('b')).toHaveCount(0);
      const box = await previewBox();
      const label = (await preview.getByText('Ask us').boundingBox())!;
      expect(label.x + label.width / 2).toBeGreaterThan(box.x + box.width / 2);
    });

    await test.step('the left side moves launcher and chat to the left', async () => {
      await form.getByRole('radio', { name: 'Left' }).check();
      const box = await previewBox();
      const label = (await preview.getByText('Ask us').boundingBox())!;
      const title = (await preview.getByText('Tea help').boundingBox())!;
      expect(label.x + label.width / 2).toBeLessThan(box.x + box.width / 2);
      expect(title.x).toBeLessThan(box.x + box.width / 2);
    });

    await test.step('a German greeting shows in the preview for German readers', async () => {
      await form.getByLabel('Language', { exact: true }).selectOption('auto');
      await form.getByLabel('For visitors reading').selectOption('de');
      await form.getByLabel('Greeting in German').fill('Hallo! Fragen Sie uns.');
      await expect(preview.getByText('Hallo! Fragen Sie uns.')).toBeVisible();
      await expect(preview.getByText('As visitors reading German see it')).toBeVisible();
      await form.getByRole('button', { name: 'Word another text in German' }).click();
      await form.getByLabel('Which text, in German').selectOption('composer.placeholder');
      await form.getByLabel('Your words for composer.placeholder in German').fill('Ihre Frage…');
      await expect(preview.getByText('Ihre Frage…')).toBeVisible();
    });

    await test.step('saving stores it: the admin API and the widget settings answer it', async () => {
      await form.getByRole('button', { name: 'Save look and language' }).click();
      await expect(form.getByRole('status')).toHaveText(/^Saved\./);
      const stored = await admin.get<WidgetAppearanceView>(`/api/v1/channels/${channel.id}/appearance`);
      expect(stored).toMatchObject({
        accent_color: '#ffd400',
        accent_text: '#000000',
        side: 'left',
        title: 'Tea help',
        launcher_label: 'Ask us',
        greeting: 'Hello! <b>Ask</b> about teas.',
        language: 'auto',
        texts: { de: { greeting: 'Hallo! Fragen Sie uns.', 'composer.placeholder': 'Ihre Frage…' } },
      });
      const settings = (await (await fetch(`${e2eEnv().baseUrl}/widget-api/${channel.public_id}/settings`)).json()) as WidgetSettings;
      expect(settings.appearance).toMatchObject({ accent_color: '#ffd400', side: 'left', title: 'Tea help' });
    });

    await test.step('after a reload the form and the preview show what was saved', async () => {
      await adminPage.page.reload();
      await adminPage.manageButton.click();
      await adminPage.channelLink(channel.name).click();
      await expect(form.getByLabel('Accent colour', { exact: true })).toHaveValue('#ffd400');
      await expect(form.getByRole('radio', { name: 'Left' })).toBeChecked();
      await expect(form.getByLabel('Chat title', { exact: true })).toHaveValue('Tea help');
      await expect(form.getByLabel('Greeting', { exact: true })).toHaveValue('Hello! <b>Ask</b> about teas.');
      await expect(preview.getByText('Send', { exact: true })).toHaveCSS('background-color', 'rgb(255, 212, 0)');
      await form.getByLabel('For visitors reading').selectOption('de');
      await expect(form.getByLabel('Your words for composer.placeholder in German')).toHaveValue('Ihre Frage…');
    });
  });

  test('admin: a bad value is refused by the API and its message shows next to the field', async ({ admin, adminAgent, adminPage }) => {
    const channel = await admin.createWidgetChannel({ name: `Bad look ${uniqueSuffix()}`, agentIds: [] });
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const form = adminPage.panel.getByRole('form', { name: 'Look and language' });
    const accent = form.getByLabel('Accent colour', { exact: true });

    await accent.fill('red;}');
    await form.getByRole('button', { name: 'Save look and language' }).click();
    await expect(form.getByRole('alert')).toHaveText('Invalid body: accent_color: a colour written #rrggbb');
    await expect(accent).toHaveAccessibleDescription(/Invalid body: accent_color/);
    // The preview keeps a colour it can trust rather than the text typed.
    await expect(adminPage.panel.getByRole('figure').getByText('Send', { exact: true })).toHaveCSS('background-color', 'rgb(36, 87, 197)');

    await accent.fill('#0f766e');
    await form.getByLabel('Chat title', { exact: true }).fill('x'.repeat(61));
    await form.getByRole('button', { name: 'Save look and language' }).click();
    await expect(form.getByRole('alert')).toHaveText('Invalid body: title: at most 60 characters');
    await expect(form.getByLabel('Chat title', { exact: true })).toHaveAccessibleDescription(/title: at most 60 characters/);

    const stored = await admin.get<WidgetAppearanceView>(`/api/v1/channels/${channel.id}/appearance`);
    expect(stored).toMatchObject({ accent_color: '#2457c5', title: null });
  });
});
