import { expect, test } from './fixtures.ts';
import { WidgetVisitor } from './widget-visitor.ts';

test.describe('widget: core', () => {
  test('widget: loads on another origin, opens, sends, shows the agent answer, and a reload keeps the conversation', async ({
    widget,
    visitor,
    engine,
  }) => {
    await test.step('the loader installs svc_api and the launcher on a page of another origin', async () => {
      await visitor.goto(widget.site.url);
      expect(await visitor.launcherLabel()).toBe('Open chat');
      expect(await visitor.chatShown()).toBe(false);
      await expect.poll(() => visitor.calls('svc_onLoadCallback')).toHaveLength(1);
    });

    await test.step('the visitor opens the chat and sends a message that reaches the agent', async () => {
      await visitor.open();
      await expect.poll(() => visitor.launcherLabel()).toBe('Minimize chat');
      await visitor.say('Hello, is the sencha in stock?');
      await visitor.expectMessage('Hello, is the sencha in stock?');
      const chat = await widget.agentApi.chatWith('Hello, is the sencha in stock?');
      await widget.agentApi.say(chat.id, 'Yes, 40 tins of it.');
      await visitor.expectMessage('Yes, 40 tins of it.');
      await expect.poll(() => visitor.calls('svc_onMessageSent')).toHaveLength(1);
    });

    await test.step('a reload keeps the conversation and the open window', async () => {
      await visitor.tab.reload();
      await visitor.waitUntilOpen();
      await visitor.expectMessage('Hello, is the sencha in stock?');
      await visitor.expectMessage('Yes, 40 tins of it.');
    });

    await test.step('a second tab of the site shows the same conversation', async () => {
      const second = new WidgetVisitor(await engine.newTab());
      await second.goto(widget.site.url);
      await second.open();
      await second.expectMessage('Yes, 40 tins of it.');
      await second.tab.close();
    });
  });
});
