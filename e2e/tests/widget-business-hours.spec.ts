import { e2eEnv } from '../support/e2e-env.ts';
import { requestJson } from '../support/http-json.ts';
import { expect, test } from '../support/widget-fixtures.ts';

const closedWeek = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };

async function setHours(channelId: number, body: unknown): Promise<void> {
  const { baseUrl, adminToken } = e2eEnv();
  await requestJson(`${baseUrl}/api/v1/channels/${channelId}/business-hours`, { method: 'PUT', token: adminToken, body });
}

test.describe('widget: business hours', () => {
  test('widget: outside the hours with the offline-form policy, the window offers only the offline form', async ({
    widget,
    widgetPage,
  }) => {
    await setHours(widget.channel.id, { schedule: closedWeek, time_zone: 'Europe/Oslo', outside: 'offline_form' });
    await widgetPage.goto(widget.site.url);
    expect(await widgetPage.api((api) => api.chatMode())).toBe('offline');
    await widgetPage.launcher.click();
    await expect(widgetPage.frame.getByRole('form', { name: 'No one is online right now' })).toBeVisible();
  });

  test('widget: outside the hours with the hide policy, nothing shows, and svc_api still answers', async ({ widget, widgetPage }) => {
    await setHours(widget.channel.id, { schedule: closedWeek, outside: 'hide' });
    await widgetPage.page.goto(widget.site.url);
    await expect.poll(() => widgetPage.calls('svc_onLoadCallback')).toHaveLength(1);
    await expect(widgetPage.launcher).toBeHidden();
    expect(await widgetPage.api((api) => api.chatMode())).toBe('offline');
  });

  test('widget: inside the hours the chat works as always', async ({ widget, widgetPage }) => {
    const allDay = [{ from: '00:00', to: '24:00' }];
    await setHours(widget.channel.id, {
      schedule: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
      outside: 'hide',
    });
    await widgetPage.goto(widget.site.url);
    expect(await widgetPage.api((api) => api.chatMode())).toBe('online');
    await widgetPage.open();
  });
});
