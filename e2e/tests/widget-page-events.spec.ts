import type { PageEventName } from '@svc/protocol';
import { expect, test } from '../support/widget-fixtures.ts';

type Recorded = { name: PageEventName; data: Record<string, unknown> };

test.describe('widget: page events (svc_api.on)', () => {
  test('widget: svc_api.on reports messages, typing, window state, unread count and chat mode, until unsubscribed', async ({
    widget,
    widgetPage,
  }) => {
    await widgetPage.page.addInitScript(() => {
      const w = window as unknown as { __events: unknown[]; __off: () => void; __hooks: Record<string, () => void> };
      w.__events = [];
      w.__hooks = {
        svc_onLoadCallback: () => {
          const names = ['message:received', 'message:sent', 'agent:typing', 'state:change', 'unread:change', 'mode:change'] as const;
          const offs = names.map((name) => window.svc_api!.on(name, (data) => w.__events.push({ name, data })));
          w.__off = () => offs.forEach((off) => off());
        },
      };
    });
    const events = (name?: PageEventName) =>
      widgetPage.page.evaluate(
        (n) => ((window as unknown as { __events: Recorded[] }).__events as Recorded[]).filter((e) => !n || e.name === n),
        name,
      );

    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await expect.poll(() => events('state:change')).toEqual([{ name: 'state:change', data: { state: 'chat' } }]);

    await widgetPage.say('Is the green tea in stock?');
    await expect
      .poll(() => events('message:sent'))
      .toEqual([{ name: 'message:sent', data: { id: expect.any(Number), type: 'text', text: 'Is the green tea in stock?' } }]);
    const chat = await widget.agentApi.chatWith('Is the green tea in stock?');

    await widget.agentApi.typing(chat.id, 'start');
    await expect.poll(() => events('agent:typing')).toEqual([{ name: 'agent:typing', data: { typing: true, agent_name: 'Alex Agent' } }]);

    await widgetPage.launcher.click();
    await widget.agentApi.say(chat.id, 'Yes, plenty.');
    await expect
      .poll(() => events('message:received'))
      .toEqual([
        {
          name: 'message:received',
          data: { id: expect.any(Number), author: 'agent', type: 'text', text: 'Yes, plenty.', agent_name: 'Alex Agent' },
        },
      ]);
    await expect.poll(() => events('unread:change')).toContainEqual({ name: 'unread:change', data: { count: 1 } });

    await widget.agentApi.setPresence('offline');
    await expect.poll(() => events('mode:change')).toEqual([{ name: 'mode:change', data: { mode: 'offline' } }]);

    await widgetPage.page.evaluate(() => (window as unknown as { __off: () => void }).__off());
    const before = (await events()).length;
    await widget.agentApi.setPresence('online');
    await widget.agentApi.say(chat.id, 'Anything else?');
    await expect(widgetPage.launcher).toHaveAccessibleName(/2 unread/);
    expect(await events()).toHaveLength(before);
  });

  test('widget: svc_api.on with a listener that is not a function throws and says how to call it', async ({ widget, widgetPage }) => {
    await widgetPage.goto(widget.site.url);
    const error = await widgetPage.page.evaluate(() => {
      try {
        window.svc_api!.on('unread:change', 'count' as never);
        return '';
      } catch (err) {
        return (err as Error).message;
      }
    });
    expect(error).toBe('svc_api.on: pass a function');
  });
});
