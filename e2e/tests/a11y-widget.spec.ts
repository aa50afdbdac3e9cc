import type { CallbackSettings } from '@svc/protocol';
import { expectNoSeriousA11yViolations } from '../support/axe.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { requestJson } from '../support/http-json.ts';
import { expect, test } from '../support/widget-fixtures.ts';

const allDay = [{ from: '00:00', to: '24:00' }];
const inSchedule: CallbackSettings = {
  enabled: true,
  time_zone: 'Europe/Oslo',
  schedule: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
  balance: 30,
};

test.describe('widget: accessibility (axe-core, WCAG 2.1 AA)', () => {
  test('widget: the launcher, the open chat with messages, the contact form, End chat, the callback form and the rating have no serious violation', async ({
    widget,
    widgetPage,
  }) => {
    await requestJson(`${e2eEnv().baseUrl}/api/v1/channels/${widget.channel.id}`, {
      method: 'PATCH',
      token: e2eEnv().adminToken,
      body: { callback: inSchedule },
    });
    await widgetPage.goto(widget.site.url);
    await expectNoSeriousA11yViolations(widgetPage.page, 'the host page with the launcher');

    await widgetPage.open();
    await widgetPage.say('Do you have green tea?');
    const chat = await widget.agentApi.chatWith('Do you have green tea?');
    await widget.agentApi.say(chat.id, 'Yes: sencha and matcha.');
    await expect(widgetPage.message('Yes: sencha and matcha.')).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'the open chat with messages');

    await widgetPage.frame.getByRole('button', { name: 'Your contact details' }).click();
    await expect(widgetPage.frame.getByRole('textbox', { name: 'Phone' })).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'the contact form');

    await widgetPage.frame.getByRole('button', { name: 'End chat' }).click();
    await expect(widgetPage.frame.getByRole('group', { name: /^End this chat\?/ })).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'the End chat confirmation');

    await widgetPage.frame.getByRole('button', { name: 'Request a call back' }).click();
    await expect(widgetPage.frame.getByRole('textbox', { name: 'Your phone number' })).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'the callback form');

    await widgetPage.api((api) => api.open());
    await widget.agentApi.close(chat.id);
    await expect(widgetPage.frame.getByRole('group', { name: 'How was this conversation?' })).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'the rating at the end of the chat');
    await widgetPage.frame.getByRole('button', { name: 'Rate this conversation as good' }).click();
    await expect(widgetPage.frame.getByText('Thanks for your feedback.')).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'the thanks for the rating');
  });

  test('widget: the offline form has no serious violation', async ({ widget, widgetPage }) => {
    await widget.agentApi.setPresence('offline');
    await widgetPage.goto(widget.site.url);
    await widgetPage.launcher.click();
    const form = widgetPage.frame.getByRole('form', { name: 'No one is online right now' });
    await expect(form).toBeVisible();
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('alert')).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'the offline form, with its error shown');
  });

  test('widget: in Arabic (right to left) with a light accent, End chat and the rating speak Arabic and have no serious violation', async ({
    widget,
    widgetPage,
  }) => {
    await requestJson(`${e2eEnv().baseUrl}/api/v1/channels/${widget.channel.id}/appearance`, {
      method: 'PUT',
      token: e2eEnv().adminToken,
      body: { language: 'ar', accent_color: '#ffd400' },
    });
    const { frame } = widgetPage;
    await widgetPage.page.goto(widget.site.url);
    await widgetPage.page.locator('svc-widget').getByRole('button').first().click();
    const textbox = frame.getByRole('textbox');
    await textbox.fill('مرحبا');
    await textbox.press('Enter');
    const chat = await widget.agentApi.chatWith('مرحبا');
    await widget.agentApi.say(chat.id, 'أهلًا! كيف يمكنني المساعدة؟');
    await expect(frame.getByRole('log').getByText('أهلًا! كيف يمكنني المساعدة؟')).toBeVisible();
    await expect(frame.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(frame.getByTestId('announcements')).toHaveText('Alex Agent: أهلًا! كيف يمكنني المساعدة؟');

    await frame.getByRole('banner').getByRole('button', { name: 'إنهاء الدردشة' }).click();
    const confirmation = frame.getByRole('group', { name: 'هل تريد إنهاء هذه الدردشة؟' });
    await expect(confirmation).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'End chat in Arabic');
    await confirmation.getByRole('button', { name: 'إنهاء الدردشة' }).click();

    const rating = frame.getByRole('group', { name: 'كيف كانت هذه المحادثة؟' });
    await expect(rating).toBeVisible();
    await expectNoSeriousA11yViolations(widgetPage.page, 'the rating in Arabic');
    await rating.getByRole('button', { name: 'تقييم المحادثة بأنها جيدة' }).click();
    await expect(frame.getByText('شكرًا على ملاحظاتك.')).toBeVisible();
    await expect.poll(async () => (await widget.agentApi.chat(chat.id)).rate).toBe('positive');
  });
});
