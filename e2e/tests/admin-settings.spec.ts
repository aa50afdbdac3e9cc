import {
  weekDays,
  type BusinessHoursView,
  type ChannelIdentityView,
  type TranscriptSettingsView,
  type WidgetSettings,
} from '@svc/protocol';
import { uniqueSuffix } from '../support/admin-api.ts';
import { expect, test } from '../support/admin-fixtures.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { requestJson } from '../support/http-json.ts';

const dayNames = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const widgetCallback = async (publicId: string) =>
  (await requestJson<WidgetSettings>(`${e2eEnv().baseUrl}/widget-api/${publicId}/settings`, { method: 'GET' })).callback;
const channelStatus = async (statusUrl: string) => (await fetch(statusUrl)).text();

test.describe('admin: channel settings', () => {
  test('admin: callback settings saved in the panel are what svc_api.isCallbackEnabled answers', async ({
    admin,
    adminAgent,
    adminAgentApi,
    adminPage,
  }) => {
    const channel = await admin.createWidgetChannel({ name: `Calls ${uniqueSuffix()}`, agentIds: [adminAgent.id] });
    await adminPage.open(adminAgent);
    await adminAgentApi.setPresence('online');
    await adminPage.channelLink(channel.name).click();
    const form = adminPage.panel.getByRole('form', { name: 'Callback settings' });

    await test.step('enabled, every day all day, with minutes left: calls are available', async () => {
      await form.getByRole('checkbox', { name: 'Take callback requests' }).check();
      await form.getByLabel('Time zone').fill('Europe/Oslo');
      for (const day of dayNames) {
        await form.getByRole('button', { name: `Add hours on ${day}` }).click();
        await form.getByLabel(`${day} from`).fill('00:00');
        await form.getByLabel(`${day} to`).fill('24:00');
      }
      await form.getByLabel('Call minutes left').fill('600');
      await form.getByRole('button', { name: 'Save callback settings' }).click();
      await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      const stored = (await admin.getChannel(channel.id)).callback!;
      expect(stored).toMatchObject({ enabled: true, time_zone: 'Europe/Oslo', balance: 600 });
      for (const day of weekDays) expect(stored.schedule[day]).toEqual([{ from: '00:00', to: '24:00' }]);
      expect(await widgetCallback(channel.public_id)).toEqual({ result: 'ok' });
      await expect(form.getByTestId('callback-now')).toHaveText(/isCallbackEnabled answers now: ok/);
    });

    await test.step('a range whose from is after its to is refused with the API wording', async () => {
      await form.getByLabel('Tuesday from').fill('18:00');
      await form.getByLabel('Tuesday to').fill('09:00');
      await form.getByRole('button', { name: 'Save callback settings' }).click();
      await expect(form.getByRole('alert')).toHaveText('Invalid body: callback.schedule.tue.0: from must be earlier than to');
      await form.getByLabel('Tuesday from').fill('00:00');
      await form.getByLabel('Tuesday to').fill('24:00');
    });

    await test.step('disabled: the widget answers Callback disabled', async () => {
      await form.getByRole('checkbox', { name: 'Take callback requests' }).uncheck();
      await form.getByRole('button', { name: 'Save callback settings' }).click();
      await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
      expect(await widgetCallback(channel.public_id)).toMatchObject({ result: 'fail', reason: 'Callback disabled' });
      await expect(form.getByTestId('callback-now')).toContainText('fail: Callback disabled');
    });
  });

  test('admin: business hours closed all week take a Chat API channel offline, and removing them opens it again', async ({
    admin,
    adminAgent,
    adminAgentApi,
    adminPage,
  }) => {
    const channel = await admin.createChatApiChannel({
      name: `Hours ${uniqueSuffix()}`,
      webhookUrl: 'http://127.0.0.1:9/integrator',
      agentIds: [adminAgent.id],
    });
    await adminPage.open(adminAgent);
    await adminAgentApi.setPresence('online');
    await adminPage.channelLink(channel.name).click();
    const form = adminPage.panel.getByRole('form', { name: 'Business hours' });
    const now = form.getByTestId('business-hours-now');
    await expect(now).toHaveText(/No business hours/);
    await expect.poll(() => channelStatus(channel.status_url!)).toBe('1');

    await test.step('a range whose from is after its to: the API says which', async () => {
      await form.getByRole('button', { name: 'Add hours on Monday' }).click();
      await form.getByLabel('Monday from').fill('17:00');
      await form.getByLabel('Monday to').fill('08:00');
      await form.getByRole('button', { name: 'Save business hours' }).click();
      await expect(form.getByRole('alert')).toHaveText('Invalid body: schedule.mon.0: from must be earlier than to');
      await form.getByRole('button', { name: 'Remove Monday' }).click();
    });

    await test.step('closed all week with the offline form: the status URL answers 0', async () => {
      await form.getByLabel('Time zone').fill('Europe/Oslo');
      await form.getByLabel('Holidays').fill('2026-12-24\n2026-12-25');
      await form.getByRole('radio', { name: /^Offline form only/ }).check();
      await form.getByRole('button', { name: 'Save business hours' }).click();
      await expect(now).toHaveText('Closed now: outside the business hours.');
      const stored = await admin.get<BusinessHoursView>(`/api/v1/channels/${channel.id}/business-hours`);
      expect(stored).toMatchObject({
        open_now: false,
        business_hours: { time_zone: 'Europe/Oslo', holidays: ['2026-12-24', '2026-12-25'], outside: 'offline_form' },
      });
      await expect.poll(() => channelStatus(channel.status_url!)).toBe('0');
    });

    await test.step('removed: open again while the agent is online', async () => {
      await adminPage.confirm('Remove business hours', 'Remove');
      await expect(now).toHaveText(/No business hours/);
      expect((await admin.get<BusinessHoursView>(`/api/v1/channels/${channel.id}/business-hours`)).business_hours).toBeNull();
      await expect.poll(() => channelStatus(channel.status_url!)).toBe('1');
    });
  });

  test('admin: the identity secret shows, copies and rotates, and verified visitors can be required', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const channel = await admin.createWidgetChannel({ name: `Verified ${uniqueSuffix()}`, agentIds: [] });
    const identityPath = `/api/v1/channels/${channel.id}/identity`;
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const form = adminPage.panel.getByRole('form', { name: 'Verified visitors' });

    await expect(form.getByLabel('Identity secret', { exact: true })).toHaveCount(0);
    await form.getByRole('button', { name: 'Show identity secret' }).click();
    const first = (await admin.get<ChannelIdentityView>(identityPath)).identity_secret;
    expect(await adminPage.copyValue('Identity secret')).toBe(first);
    expect(await adminPage.copyValue('Signing on your server')).toContain("createHmac('sha256'");

    await adminPage.confirm('Rotate identity secret', 'Rotate now');
    await expect(form.getByLabel('Identity secret', { exact: true })).not.toHaveValue(first);
    const rotated = await admin.get<ChannelIdentityView>(identityPath);
    expect(await adminPage.copyValue('Identity secret')).toBe(rotated.identity_secret);
    expect(rotated.require_verified_users).toBe(false);

    await form.getByRole('checkbox', { name: /^Require verified visitors/ }).check();
    await form.getByRole('button', { name: 'Save verified visitors' }).click();
    await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect((await admin.get<ChannelIdentityView>(identityPath)).require_verified_users).toBe(true);
  });

  test('admin: transcripts by e-mail say the server sends none without SVC_SMTP_URL, and save an archive address', async ({
    admin,
    adminAgent,
    adminPage,
  }) => {
    const channel = await admin.createWidgetChannel({ name: `Transcripts ${uniqueSuffix()}`, agentIds: [] });
    const path = `/api/v1/channels/${channel.id}/transcripts`;
    await adminPage.open(adminAgent);
    await adminPage.channelLink(channel.name).click();
    const form = adminPage.panel.getByRole('form', { name: 'Transcripts by e-mail' });

    await expect(adminPage.panel.getByTestId('smtp-notice')).toHaveText(/no SVC_SMTP_URL, so no e-mail is sent/);
    await form.getByLabel('Archive address').fill('not an address');
    await form.getByRole('button', { name: 'Save transcript settings' }).click();
    await expect(form.getByRole('alert')).toHaveText('Invalid body: archive_email: must be an e-mail address');

    await form.getByLabel('Archive address').fill('chats@example.com');
    await form.getByRole('checkbox', { name: /^Send the log to the customer/ }).uncheck();
    await form.getByRole('button', { name: 'Save transcript settings' }).click();
    await expect(form.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    expect(await admin.get<TranscriptSettingsView>(path)).toEqual({
      archive_email: 'chats@example.com',
      to_customer: false,
      smtp_configured: false,
    });
  });
});
