import type { TriggerRules } from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';

test.describe('admin: widget channels', () => {
  test('admin: a widget channel is created with its embed snippet and a live preview', async ({ admin, adminAgent, adminPage }) => {
    const name = `Tea shop ${uniqueSuffix()}`;
    await adminPage.open(adminAgent);
    await adminPage.panel.getByRole('button', { name: 'Add channel' }).click();
    await adminPage.panel.getByRole('button', { name: /^Widget/ }).click();
    await adminPage.panel.getByLabel('Channel name').fill(name);
    await adminPage.panel.getByRole('checkbox', { name: new RegExp(adminAgent.email) }).check();
    await adminPage.panel.getByRole('button', { name: 'Create widget' }).click();
    await expect(adminPage.panel.getByRole('heading', { name, level: 3 })).toBeVisible();

    const channels = (
      await admin.get<{ channels: { id: number; name: string; embed?: string; agent_ids: number[] }[] }>('/api/v1/channels')
    ).channels;
    const created = channels.find((c) => c.name === name)!;
    expect(created.agent_ids).toEqual([adminAgent.id]);
    expect(await adminPage.copyValue('Embed snippet')).toBe(created.embed);

    const preview = adminPage.page.frameLocator(`iframe[title="Preview of the ${name} widget"]`);
    await expect(preview.getByRole('button', { name: /^Open chat/ })).toBeVisible();
  });

  test('admin: Integration Settings say plainly that no allowed domain lets every link through, and save the webhook', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const channel = await admin.createWidgetChannel({ name: `Dev ${uniqueSuffix()}`, agentIds: [] });
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const settings = adminPage.panel.getByRole('form', { name: 'Integration Settings for Developers' });

    await expect(settings.getByText("links to every http(s) domain in your visitors' custom data are shown to agents")).toBeVisible();
    await settings.getByLabel('Allowed domains, one per line').fill('Shop.Example.com\n*.cdn.example.com');
    await settings.getByLabel('Webhook URL of your server').fill('http://127.0.0.1:9/hooks');
    await settings.getByRole('checkbox', { name: 'chat_updated' }).uncheck();
    await settings.getByRole('button', { name: 'Save integration settings' }).click();
    await expect(settings.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expect(settings.getByText('links to every http(s) domain')).toHaveCount(0);

    const saved = await admin.getChannel(channel.id);
    expect(saved.safe_domains).toEqual(['shop.example.com', '*.cdn.example.com']);
    expect(saved.webhook_url).toBe('http://127.0.0.1:9/hooks');
    expect(saved.webhook_events).not.toContain('chat_updated');
    expect(saved.webhook_events).toContain('chat_finished');

    await settings.getByLabel('Allowed domains, one per line').fill('not a domain!');
    await settings.getByRole('button', { name: 'Save integration settings' }).click();
    await expect(settings.getByRole('alert')).toHaveText(/^Invalid body: safe_domains\.0: must be a domain/);
  });

  test('admin: the triggers editor saves rules that the admin API then returns', async ({ admin, adminAgent, adminPage }) => {
    const channel = await admin.createWidgetChannel({ name: `Triggers ${uniqueSuffix()}`, agentIds: [] });
    const department = await admin.createDepartment(`Sales ${uniqueSuffix()}`);
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const editor = adminPage.panel.getByRole('form', { name: 'Triggers' });

    await editor.getByRole('button', { name: 'Add rule' }).click();
    const first = editor.getByRole('group', { name: 'Rule 1' });
    await first.getByLabel('Rule id').fill('pricing-help');
    await first.getByLabel('Rule name').fill('Help on pricing');
    await first.getByLabel('Frequency').selectOption('once_per_visitor');
    await first.getByLabel('Time on page (seconds)').fill('20');
    await first.getByLabel('Page URL patterns').fill('*/pricing*\n*/plans*');
    await first.getByLabel('Excluded URL patterns').fill('*/pricing/faq*');
    await first.getByLabel('Visit count at least').fill('2');
    await first.getByLabel('Visit count at most').fill('5');
    await first.getByLabel('Referrer patterns').fill('*google.*');
    await first.getByLabel('Also match visits without a referrer').check();
    await first.getByLabel('UTM source').fill('mail');
    await first.getByLabel('UTM campaign').fill('spring');
    await first.getByLabel('Chat mode').selectOption('online');
    await first.getByLabel('Invitation text').fill('Questions about our plans?');
    await first.getByLabel('Department of the chat').selectOption(department.name);

    await editor.getByRole('button', { name: 'Add rule' }).click();
    const second = editor.getByRole('group', { name: 'Rule 2' });
    await second.getByLabel('Rule id').fill('welcome');
    await second.getByLabel('Enabled').uncheck();
    await second.getByLabel('Open the chat window').check();

    await editor.getByRole('button', { name: 'Save triggers' }).click();
    await expect(editor.getByRole('status').filter({ hasText: 'Triggers saved.' })).toBeVisible();

    const stored = await admin.get<TriggerRules>(`/api/v1/channels/${channel.id}/triggers`);
    expect(stored.rules).toEqual([
      {
        id: 'pricing-help',
        name: 'Help on pricing',
        enabled: true,
        frequency: 'once_per_visitor',
        conditions: {
          time_on_page: 20,
          page_url: ['*/pricing*', '*/plans*'],
          page_url_not: ['*/pricing/faq*'],
          visit_count: { min: 2, max: 5 },
          referrer: ['*google.*', ''],
          utm: { source: 'mail', campaign: 'spring' },
          chat_mode: 'online',
        },
        action: { type: 'invite', text: 'Questions about our plans?', department_id: department.id },
      },
      { id: 'welcome', enabled: false, frequency: 'once_per_visit', conditions: {}, action: { type: 'open' } },
    ]);

    await test.step('a rule the API refuses shows its message and stores nothing', async () => {
      await second.getByLabel('Rule id').fill('pricing-help');
      await editor.getByRole('button', { name: 'Save triggers' }).click();
      await expect(editor.getByRole('alert')).toHaveText('Invalid body: rules: every rule needs its own id');
      expect((await admin.get<TriggerRules>(`/api/v1/channels/${channel.id}/triggers`)).rules[1]!.id).toBe('welcome');
    });

    await test.step('the saved rules load again when the channel is opened', async () => {
      await adminPage.panel.getByRole('button', { name: 'All channels' }).click();
      await adminPage.channelLink(channel.name).click();
      await expect(editor.getByRole('group', { name: 'Rule 1' }).getByLabel('Page URL patterns')).toHaveValue('*/pricing*\n*/plans*');
      await expect(editor.getByRole('group', { name: 'Rule 2' }).getByLabel('Open the chat window')).toBeChecked();
    });
  });

  test('admin: a widget channel is renamed and deleted', async ({ admin, adminAgent, adminPage }) => {
    const channel = await admin.createWidgetChannel({ name: `Gone ${uniqueSuffix()}`, agentIds: [] });
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const renamed = `Kept ${uniqueSuffix()}`;
    await adminPage.panel.getByLabel('Channel name').fill(renamed);
    await adminPage.panel.getByRole('button', { name: 'Save changes' }).click();
    await expect(adminPage.panel.getByRole('heading', { name: renamed, level: 3 })).toBeVisible();
    await adminPage.confirm('Delete channel', 'Yes, delete it');
    await expect(adminPage.channelLink(renamed)).toHaveCount(0);
    await expect(admin.getChannel(channel.id)).rejects.toThrow(/answered 404/);
  });
});
