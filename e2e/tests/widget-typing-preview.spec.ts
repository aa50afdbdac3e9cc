import { ConsolePage } from '../support/console-page.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { requestJson } from '../support/http-json.ts';
import { expect, test } from '../support/widget-fixtures.ts';

const NOTICE = 'The agent can see what you type before you send it.';

/** Turns the channel's typing preview on or off through the admin API. */
async function setTypingPreview(channelId: number, on: boolean) {
  const { baseUrl, adminToken } = e2eEnv();
  await requestJson(`${baseUrl}/api/v1/channels/${channelId}`, { token: adminToken, method: 'PATCH', body: { typing_preview: on } });
}

// Issue 24: the agent sees the visitor's draft only where the site owner turned it on, and the visitor is told.
test.describe('widget: typing preview', () => {
  for (const on of [true, false]) {
    test(`widget: typing preview ${on ? 'on: the visitor is told and the agent sees the draft until the message arrives' : 'off: no notice and no draft reaches the agent'}`, async ({
      widget,
      widgetPage,
      browser,
    }, testInfo) => {
      await setTypingPreview(widget.channel.id, on);
      await widgetPage.goto(widget.site.url);
      await widgetPage.api((api) => api.setContactInfo({ name: 'Dana Drafter' }));
      await widgetPage.open();
      await widgetPage.say('Hello');
      await widget.agentApi.chatWith('Hello');

      const agentContext = await browser.newContext({ baseURL: e2eEnv().baseUrl });
      const console = new ConsolePage(await agentContext.newPage());
      await console.login(widget.agent.email, widget.agent.password);
      await console.openChat('Dana Drafter');
      const draft = console.page.getByRole('figure', { name: 'Dana Drafter is writing (not sent yet)' });

      await widgetPage.textbox.pressSequentially('Do you ship to Oslo?');
      await expect(console.typingIndicator).toBeVisible();
      if (on) {
        await expect(widgetPage.frame.getByText(NOTICE)).toBeVisible();
        await expect(draft).toContainText('Do you ship to Oslo?');
        await widgetPage.page.screenshot({ path: testInfo.outputPath('widget-notice.png') });
        await console.page.screenshot({ path: testInfo.outputPath('console-draft.png') });
        await widgetPage.textbox.press('Enter');
        await expect(console.message('Do you ship to Oslo?')).toBeVisible();
        await expect(draft).toHaveCount(0);
      } else {
        await expect(widgetPage.frame.getByText(NOTICE)).toHaveCount(0);
        await console.page.waitForTimeout(1500);
        await expect(draft).toHaveCount(0);
      }
      await agentContext.close();
    });
  }
});
