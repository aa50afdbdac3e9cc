import type { CallbackSettings, WebhookPayload } from '@svc/protocol';
import { ConsolePage } from '../support/console-page.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { FakeIntegrator } from '../support/fake-integrator.ts';
import { requestJson } from '../support/http-json.ts';
import { expect, test } from '../support/widget-fixtures.ts';
import type { WidgetPage } from '../support/widget-page.ts';

const allDay = [{ from: '00:00', to: '24:00' }];
const everyDay = { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay };
const inSchedule: CallbackSettings = { enabled: true, time_zone: 'Europe/Oslo', schedule: everyDay, balance: 30 };
const closedAllWeek: CallbackSettings = { ...inSchedule, schedule: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] } };

/** The channel's settings, as the site owner's admin would change them. */
const configure = (channelId: number, body: Record<string, unknown>) =>
  requestJson(`${e2eEnv().baseUrl}/api/v1/channels/${channelId}`, { method: 'PATCH', token: e2eEnv().adminToken, body });

/** What the callback view says (the call's status, or why calls are unavailable). */
const callbackStatus = (widgetPage: WidgetPage) => widgetPage.frame.getByRole('region', { name: /call back$/ }).getByRole('status');

const isCallbackEnabled = (widgetPage: WidgetPage) => widgetPage.api((api) => new Promise((resolve) => api.isCallbackEnabled(resolve)));

test.describe('widget: calls', () => {
  test('widget: in the schedule, startCall reaches the console; the agent answers and ends it; the page and the webhook hear it', async ({
    widget,
    widgetPage,
    browser,
  }) => {
    const owner = await FakeIntegrator.start();
    const callEvents = () =>
      owner.received.map((r) => r.body as unknown as WebhookPayload).filter((b) => b.event_name === 'call_event') as Extract<
        WebhookPayload,
        { event_name: 'call_event' }
      >[];
    await configure(widget.channel.id, { callback: inSchedule, webhook_url: owner.url, webhook_events: ['call_event'] });
    await widgetPage.goto(widget.site.url);

    await test.step('isCallbackEnabled answers ok and startCall takes the number', async () => {
      expect(await isCallbackEnabled(widgetPage)).toEqual({ result: 'ok' });
      expect(await widgetPage.api((api) => api.startCall('+4755501234'))).toEqual({ result: 'ok' });
      await expect.poll(() => widgetPage.calls('svc_onCallStart')).toHaveLength(1);
      await expect(callbackStatus(widgetPage)).toHaveText('Your request is in. Waiting for an agent to call you…');
      expect(await widgetPage.states()).toContain('call');
    });

    const agentContext = await browser.newContext({ baseURL: e2eEnv().baseUrl });
    const console = new ConsolePage(await agentContext.newPage());
    const call = console.inbox.getByRole('listitem', { name: 'Callback request +4755501234' });
    await test.step('the agent sees the request live in the Calls tab and answers it', async () => {
      await console.login(widget.agent.email, widget.agent.password);
      await console.showTab('Calls');
      await expect(call).toContainText('Waiting for an agent');
      await call.getByRole('button', { name: 'Answer' }).click();
      await expect(call).toContainText('Agent calling');
      await expect(callbackStatus(widgetPage)).toHaveText('An agent is calling you now.');
      await call.getByRole('button', { name: 'Connected' }).click();
      await expect(callbackStatus(widgetPage)).toHaveText('You are connected with an agent.');
      expect(await widgetPage.calls('svc_onCallEnd')).toEqual([]);
    });

    await test.step('the agent ends the call with its recording; svc_onCallEnd says ok', async () => {
      await call.getByLabel('Recording URL (optional)').fill('https://records.example.com/call-7.mp3');
      await call.getByRole('button', { name: 'End' }).click();
      await expect(call).toContainText('Ended');
      await expect(call.getByRole('link', { name: 'Recording' })).toHaveAttribute('href', 'https://records.example.com/call-7.mp3');
      await expect(callbackStatus(widgetPage)).toHaveText('The call has ended. Thank you!');
      await expect.poll(() => widgetPage.calls('svc_onCallEnd')).toEqual([{ name: 'svc_onCallEnd', args: [{ result: 'ok' }] }]);
      expect(await isCallbackEnabled(widgetPage)).toEqual({ result: 'ok' });
    });

    await test.step('the site owner got call_event for every status, with the agent and the recording at the end', async () => {
      await expect.poll(() => callEvents().map((e) => e.call.status)).toEqual(['start', 'agent_connected', 'client_connected', 'end']);
      const last = callEvents().at(-1)!;
      expect(last).toMatchObject({
        widget_id: widget.channel.public_id,
        agent: { id: widget.agent.id, name: 'Alex Agent', email: widget.agent.email },
        call: { type: 'callback', phone: '+4755501234', status: 'end', record_url: 'https://records.example.com/call-7.mp3' },
      });
      expect(callEvents()[0]!.agent).toBeNull();
    });

    await agentContext.close();
    await owner.close();
  });

  test('widget: the callback form asks for a number, then shows the call fail with its reason', async ({ widget, widgetPage }) => {
    await configure(widget.channel.id, { callback: inSchedule });
    await widgetPage.goto(widget.site.url);
    await widgetPage.api((api) => api.open({ start: 'call' }));
    const phone = widgetPage.frame.getByRole('textbox', { name: 'Your phone number' });
    await expect(phone).toBeFocused();
    await expect.poll(() => widgetPage.states()).toEqual(['call']);

    await test.step('a number that is not one is refused in the form', async () => {
      await phone.fill('call me');
      await widgetPage.frame.getByRole('button', { name: 'Call me back' }).click();
      await expect(widgetPage.frame.getByRole('form', { name: 'Request a call back' }).getByRole('status')).toHaveText(
        /Please enter a phone number with its country code/,
      );
      await expect(phone).toHaveAttribute('aria-invalid', 'true');
      expect(await widgetPage.calls('svc_onCallStart')).toEqual([]);
    });

    let callId = 0;
    await test.step('a real number is sent; svc_onCallStart fires', async () => {
      await phone.fill('+47 555 01 234');
      await widgetPage.frame.getByRole('button', { name: 'Call me back' }).click();
      await expect(widgetPage.frame.getByText('Number: +47 555 01 234')).toBeVisible();
      await expect.poll(() => widgetPage.calls('svc_onCallStart')).toHaveLength(1);
      callId = (await widget.agentApi.calls()).find((c) => c.phone === '+47 555 01 234')!.id;
    });

    await test.step('the call fails: the visitor reads why and svc_onCallEnd carries the reason', async () => {
      await widget.agentApi.changeCallStatus(callId, { status: 'error', reason: 'Nobody answered <b>the phone</b>' });
      await expect(callbackStatus(widgetPage)).toHaveText('The call failed. Nobody answered <b>the phone</b>');
      await expect
        .poll(() => widgetPage.calls('svc_onCallEnd'))
        .toEqual([{ name: 'svc_onCallEnd', args: [{ result: 'fail', reason: 'Nobody answered <b>the phone</b>' }] }]);
      await widgetPage.frame.getByRole('button', { name: 'Request another call' }).click();
      await expect(phone).toBeVisible();
    });
  });

  test('widget: outside the schedule calls are unavailable, and when turned off they are disabled', async ({ widget, widgetPage }) => {
    await configure(widget.channel.id, { callback: closedAllWeek });
    await widgetPage.goto(widget.site.url);
    const unavailable = {
      result: 'fail',
      reason: 'Callback unavaiable',
      detail: 'Calls are taken only during opening hours (Europe/Oslo)',
    };

    await test.step('isCallbackEnabled and startCall say Callback unavaiable, with the detail', async () => {
      expect(await isCallbackEnabled(widgetPage)).toEqual(unavailable);
      expect(await widgetPage.api((api) => api.startCall('+4755501234'))).toEqual(unavailable);
      expect(await widgetPage.api((api) => api.startCall('12'))).toEqual({ result: 'fail', reason: 'Invalid phone number' });
      expect(await widgetPage.calls('svc_onCallStart')).toEqual([]);
    });

    await test.step("open({start:'call'}) says why and offers the chat", async () => {
      await widgetPage.api((api) => api.open({ start: 'call' }));
      await expect(callbackStatus(widgetPage)).toHaveText(
        'Calls are not available right now: Calls are taken only during opening hours (Europe/Oslo).',
      );
      await expect.poll(() => widgetPage.states()).toEqual(['call']);
      await widgetPage.frame.getByRole('button', { name: 'Write to us in the chat' }).click();
      await expect(widgetPage.textbox).toBeVisible();
      // The frame's own session agrees with the loader's first answer.
      expect(await isCallbackEnabled(widgetPage)).toEqual(unavailable);
    });

    await test.step('calls turned off in the admin API: Callback disabled', async () => {
      await configure(widget.channel.id, { callback: { ...inSchedule, enabled: false } });
      await expect
        .poll(() => isCallbackEnabled(widgetPage))
        .toEqual({ result: 'fail', reason: 'Callback disabled', detail: 'Calls are turned off for this site' });
      await widgetPage.page.reload();
      expect(await isCallbackEnabled(widgetPage)).toMatchObject({ result: 'fail', reason: 'Callback disabled' });
    });
  });
});
