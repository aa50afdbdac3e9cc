import { e2eEnv } from '../support/e2e-env.ts';
import { expect, test } from '../support/widget-fixtures.ts';

// Issue 21: an erased visitor is let go at once; the widget comes back as a new visitor holding nothing of before.
test.describe('widget: an erased visitor', () => {
  test('widget: erased while the chat is open, the conversation leaves the screen and the next message starts a new visitor', async ({
    widget,
    widgetPage,
  }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Please forget my address');
    const before = await widget.agentApi.chatWith('Please forget my address');

    const { baseUrl, adminToken } = e2eEnv();
    const erased = await fetch(`${baseUrl}/api/v1/channels/${widget.channel.id}/clients/${encodeURIComponent(before.client.id)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(erased.status).toBe(204);
    await expect(widgetPage.message('Please forget my address')).toHaveCount(0);

    await widgetPage.say('Hello again');
    const after = await widget.agentApi.chatWith('Hello again');
    expect(after.client.id).not.toBe(before.client.id);
    expect(await widget.agentApi.texts(after.id)).toEqual(['Hello again']);
  });
});
