import { expect, test } from './fixtures.ts';
import { LAUNCHER, WidgetVisitor } from './widget-visitor.ts';

test.describe('widget: page api', () => {
  test("widget: the page's svc_api.setContactInfo names the visitor to the agent", async ({ widget, visitor }) => {
    await visitor.goto(widget.site.url);
    // Compared in the page: WebDriver hands a script's undefined back as null.
    expect(await visitor.api(`api.setContactInfo({ name: 'Vera Visitor', email: 'vera@example.com' }) === undefined`)).toBe(true);
    expect(await visitor.api('api.getContactInfo()')).toEqual({ name: 'Vera Visitor', email: 'vera@example.com' });
    await visitor.open();
    await visitor.say('Hello from Vera');
    const chat = await widget.agentApi.chatWith('Hello from Vera');
    await expect
      .poll(async () => (await widget.agentApi.chat(chat.id)).client)
      .toMatchObject({ name: 'Vera Visitor', email: 'vera@example.com' });
  });

  test("widget: svc_api.showProactiveInvitation opens the chat with the page's text, and the agent sees it", async ({
    widget,
    visitor,
  }) => {
    await visitor.goto(widget.site.url);
    await visitor.api(`api.showProactiveInvitation('Looking for a gift? Ask us!')`);
    await visitor.waitUntilOpen();
    await visitor.expectMessage('Looking for a gift? Ask us!');
    await visitor.say('Yes, for my aunt');
    const chat = await widget.agentApi.chatWith('Yes, for my aunt');
    expect(chat.client.invite).toBe('Looking for a gift? Ask us!');
  });

  test('widget: svc_api.on hears the messages both ways, the window state and the unread count', async ({ widget, visitor }) => {
    await visitor.goto(widget.site.url);
    await visitor.tab.evaluate(`(() => {
      window.__events = [];
      for (const name of ['message:received', 'message:sent', 'state:change', 'unread:change'])
        window.svc_api.on(name, (data) => window.__events.push({ name, data }));
      return true;
    })()`);
    const events = (name: string) =>
      visitor.tab.evaluate<unknown[]>(`window.__events.filter((e) => e.name === ${JSON.stringify(name)}).map((e) => e.data)`);
    await visitor.open();
    await expect.poll(() => events('state:change')).toEqual([{ state: 'chat' }]);
    await visitor.say('Is the green tea in stock?');
    await expect.poll(() => events('message:sent')).toEqual([{ id: expect.any(Number), type: 'text', text: 'Is the green tea in stock?' }]);
    const chat = await widget.agentApi.chatWith('Is the green tea in stock?');
    await visitor.tab.click('page', LAUNCHER);
    await expect.poll(() => visitor.chatShown()).toBe(false);
    await widget.agentApi.say(chat.id, 'Yes, plenty.');
    await expect
      .poll(() => events('message:received'))
      .toEqual([{ id: expect.any(Number), author: 'agent', type: 'text', text: 'Yes, plenty.', agent_name: 'Alex Agent' }]);
    await expect.poll(() => events('unread:change')).toContainEqual({ count: 1 });
    await expect.poll(() => visitor.launcherLabel()).toMatch(/1 unread/);
  });
});

test.describe('widget: conversation', () => {
  test("widget: the agent's typing shows in the chat and goes when the answer comes", async ({ widget, visitor }) => {
    await visitor.goto(widget.site.url);
    await visitor.open();
    await visitor.say('Which oolong do you have?');
    const chat = await widget.agentApi.chatWith('Which oolong do you have?');
    await widget.agentApi.typing(chat.id, 'start');
    await visitor.expectInChat('body', 'Alex Agent is typing…');
    await widget.agentApi.say(chat.id, 'Tieguanyin and Da Hong Pao.');
    await visitor.expectMessage('Tieguanyin and Da Hong Pao.');
    await expect.poll(() => visitor.inChat(`document.body.textContent.includes('is typing…')`)).toBe(false);
  });

  test('widget: a second tab opened mid-chat gets the answers live and keeps them across its reload', async ({
    widget,
    visitor,
    engine,
  }) => {
    await visitor.goto(widget.site.url);
    await visitor.open();
    await visitor.say('Started in the first tab');
    const chat = await widget.agentApi.chatWith('Started in the first tab');
    const second = new WidgetVisitor(await engine.newTab());
    await second.goto(`${widget.site.url}/other-page`);
    await second.open();
    await second.expectMessage('Started in the first tab');
    await widget.agentApi.say(chat.id, 'Seen in both tabs');
    await second.expectMessage('Seen in both tabs');
    await second.say('Written in the second tab');
    await second.tab.reload();
    await second.waitUntilOpen();
    await second.expectMessage('Seen in both tabs');
    await second.expectMessage('Written in the second tab');
    await visitor.expectMessage('Written in the second tab');
    await expect.poll(() => widget.agentApi.texts(chat.id)).toEqual(['Started in the first tab', 'Written in the second tab']);
  });

  test('widget: a long chat comes back with its newest 50 messages and scrolling up loads the older ones', async ({ widget, visitor }) => {
    await visitor.goto(widget.site.url);
    await visitor.open();
    await visitor.say('The very first question');
    const chat = await widget.agentApi.chatWith('The very first question');
    for (let i = 1; i <= 69; i++) await widget.agentApi.say(chat.id, `answer ${i}`);
    await visitor.tab.reload();
    await visitor.waitUntilOpen();
    const lines = () => visitor.inChat<string[]>(`[...document.querySelectorAll('[role=log] li')].map((li) => li.textContent)`);
    await expect.poll(async () => (await lines())?.length).toBe(50);
    expect((await lines())![0]).toContain('answer 20');
    await visitor.inChat(`document.querySelector('[role=log]').scrollTop = 0`);
    // Down to the first message of the chat, under the greeting that opened it.
    await expect.poll(async () => (await lines())?.length).toBe(71);
    expect((await lines())![0]).toContain('Ask us anything: we are happy to help.');
    expect((await lines())![1]).toContain('The very first question');
  });
});
