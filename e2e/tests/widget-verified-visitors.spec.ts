import { createHmac } from 'node:crypto';
import type { ChannelIdentityView } from '@svc/protocol';
import { e2eEnv } from '../support/e2e-env.ts';
import { requestJson } from '../support/http-json.ts';
import { expect, test } from '../support/widget-fixtures.ts';

test.describe('widget: verified visitors', () => {
  test('widget: a channel that verifies visitors takes only a user id signed by the site, and agents see it verified', async ({
    widget,
    widgetPage,
    consolePage,
  }) => {
    const { baseUrl, adminToken } = e2eEnv();
    const identity = await requestJson<ChannelIdentityView>(`${baseUrl}/api/v1/channels/${widget.channel.id}/identity`, {
      method: 'PATCH',
      token: adminToken,
      body: { require_verified_users: true },
    });
    // What the site's own server does, and prints into its page.
    const signature = createHmac('sha256', identity.identity_secret).update('customer-1001').digest('hex');
    await widgetPage.goto(widget.site.url);

    expect(await widgetPage.api((api) => api.setUserToken('customer-1001'))).toEqual({ result: 'fail', token: false });
    expect(await widgetPage.page.evaluate((s) => window.svc_api!.setUserToken('customer-1001', { signature: s }), signature)).toEqual({
      result: 'ok',
      token: 'customer-1001',
    });
    await widgetPage.open();
    await widgetPage.say('Where is my order?');
    const chat = await widget.agentApi.chatWith('Where is my order?');
    await expect
      .poll(async () => (await widget.agentApi.chat(chat.id)).client)
      .toMatchObject({ user_token: 'customer-1001', user_verified: true });

    await consolePage.login(widget.agent.email, widget.agent.password);
    await consolePage.openChat('Anonymous');
    await expect(consolePage.clientDetails.locator('dt:text-is("User ID") + dd')).toHaveText('customer-1001 Verified');
  });
});
