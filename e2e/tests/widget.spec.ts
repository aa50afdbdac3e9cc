import type { Page, TestInfo } from '@playwright/test';
import { ConsolePage } from '../support/console-page.ts';
import { e2eEnv } from '../support/e2e-env.ts';
import { expect, test } from '../support/widget-fixtures.ts';
import { WidgetPage } from '../support/widget-page.ts';

/** A screenshot of the page with the widget, kept in the test's output and attached to its report. */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test.describe('widget: embedding', () => {
  test('widget: the snippet defines svc_api at once, queues calls, and loads the chat only when asked', async ({
    widget,
    widgetPage,
    page,
  }) => {
    const service = new URL(e2eEnv().baseUrl).origin;
    const requested: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === service) requested.push(url.pathname);
    });
    // Hold the settings answer back: calls made meanwhile must wait for the UI, not fail.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${service}/widget-api/**`, async (route) => {
      await held;
      await route.continue();
    });

    await test.step('svc_api exists before the launcher, and its calls are queued', async () => {
      await page.goto(widget.site.url);
      await page.waitForFunction(() => 'svc_api' in window);
      await expect(widgetPage.launcher).toHaveCount(0);
      expect(await widgetPage.api((api) => api.setContactInfo({ name: 'Quinn Queue' }))).toBeUndefined();
      expect(await widgetPage.api((api) => api.getContactInfo())).toEqual({ name: 'Quinn Queue' });
      release();
      await expect(widgetPage.launcher).toBeVisible();
      await expect.poll(() => widgetPage.calls('svc_onLoadCallback')).toHaveLength(1);
    });

    await test.step("the page's own CSS does not reach the widget", async () => {
      // The host page hides every button, div and iframe and paints all text red: not ours.
      await expect(widgetPage.launcher).toHaveCSS('background-color', 'rgb(36, 87, 197)');
    });

    await test.step('nothing but the loader and the settings is requested until the chat is opened', async () => {
      await page.waitForTimeout(300);
      expect(requested).toEqual(['/widget/loader.js', `/widget-api/${widget.channel.public_id}/settings`]);
      await widgetPage.open();
      expect(requested).toEqual(expect.arrayContaining(['/widget/embed.js', '/widget/frame.html']));
      await expect(widgetPage.frame.getByRole('heading', { name: widget.channel.name })).toBeVisible();
    });
  });
});

test.describe('widget: conversation', () => {
  test('widget: a visitor and an agent talk, with typing both ways, name, avatar, times and delivery', async ({
    widget,
    widgetPage,
    browser,
  }, testInfo) => {
    const { agentApi } = widget;
    await widgetPage.goto(widget.site.url);
    await widgetPage.api((api) => api.setContactInfo({ name: 'Vera Visitor' }));
    await widgetPage.open();

    await test.step("the visitor's message is sent and says so", async () => {
      await widgetPage.say('Hello, is the sencha in stock?');
      const message = widgetPage.message('Hello, is the sencha in stock?');
      await expect(message.getByText('Sent')).toBeVisible();
      await expect(message.locator('time')).toHaveText(/^\d{1,2}:\d{2}/);
      await expect.poll(() => widgetPage.calls('svc_onMessageSent')).toHaveLength(1);
    });

    const agentContext = await browser.newContext({ baseURL: e2eEnv().baseUrl });
    const console = new ConsolePage(await agentContext.newPage());
    await console.login(widget.agent.email, widget.agent.password);
    await console.openChat('Vera Visitor');
    const chat = await agentApi.chatWith('Hello, is the sencha in stock?');

    await test.step('the agent sees the visitor typing', async () => {
      await expect(console.message('Hello, is the sencha in stock?')).toBeVisible();
      await widgetPage.textbox.pressSequentially('And the darj');
      await expect(console.typingIndicator).toBeVisible();
    });

    await test.step("the visitor sees the agent typing, then the reply with the agent's name and avatar", async () => {
      await agentApi.typing(chat.id, 'start');
      await expect(widgetPage.typingIndicator).toHaveText('Alex Agent is typing…');
      await console.reply('Yes, 40 packs left');
      await expect(widgetPage.message('Yes, 40 packs left')).toContainText('Alex Agent');
      await expect(widgetPage.typingIndicator).toBeHidden();
      await expect(widgetPage.header.getByRole('heading', { name: 'Alex Agent' })).toBeVisible();
      await expect(widgetPage.header.locator('img')).toHaveAttribute('src', `${widget.site.url}/pixel.png`);
      await expect.poll(() => widgetPage.calls('svc_onAccept')).toHaveLength(1);
      await shot(widgetPage.page, testInfo, 'widget-conversation');
    });

    await test.step('while minimized, new replies show as an unread badge', async () => {
      await widgetPage.frame.getByRole('button', { name: 'Minimize chat' }).click();
      await expect(widgetPage.launcher).toHaveAccessibleName('Open chat');
      await agentApi.say(chat.id, 'Anything else?');
      await expect(widgetPage.launcher).toHaveAccessibleName('Open chat, 1 unread');
      await widgetPage.launcher.click();
      await expect(widgetPage.message('Anything else?')).toBeVisible();
      await expect(widgetPage.launcher).toHaveAccessibleName('Minimize chat');
    });

    await test.step('when the agent closes the chat, the visitor is told', async () => {
      await agentApi.close(chat.id);
      await expect(widgetPage.messages.getByText('The chat has ended. Write again to start a new one.')).toBeVisible();
    });
    await agentContext.close();
  });

  test('widget: a reload keeps the chat and a second tab of the site shares it', async ({ widget, widgetPage, context }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Written before the reload');
    await expect(widgetPage.message('Written before the reload').getByText('Sent')).toBeVisible();
    const number = await widgetPage.api((api) => new Promise((resolve) => api.getVisitorNumber((_err, n) => resolve(n))));

    await test.step('after a reload the window is open again with the history', async () => {
      await widgetPage.page.reload();
      await expect(widgetPage.message('Written before the reload')).toBeVisible();
      expect(await widgetPage.api((api) => new Promise((resolve) => api.getVisitorNumber((_err, n) => resolve(n))))).toBe(number);
    });

    const second = new WidgetPage(await context.newPage());
    await test.step('another tab of the site continues the same chat', async () => {
      await second.goto(`${widget.site.url}/other-page`);
      await second.open();
      await expect(second.message('Written before the reload')).toBeVisible();
      await second.say('Written in the second tab');
      await expect(widgetPage.message('Written in the second tab')).toBeVisible();
    });

    await test.step('the agent has one chat with both messages, each once', async () => {
      const chat = await widget.agentApi.chatWith('Written in the second tab');
      expect(await widget.agentApi.texts(chat.id)).toEqual(['Written before the reload', 'Written in the second tab']);
      expect((await widget.agentApi.chats()).filter((c) => c.channel_id === widget.channel.id)).toHaveLength(1);
    });
  });

  test('widget: with no agent online the widget offers the offline form, and the chat once an agent is back', async ({
    widget,
    widgetPage,
  }) => {
    await widget.agentApi.setPresence('offline');
    await widgetPage.goto(widget.site.url);
    expect(await widgetPage.api((api) => api.chatMode())).toBe('offline');
    await widgetPage.launcher.click();
    const offlineForm = widgetPage.frame.getByRole('form', { name: 'No one is online right now' });
    await expect(offlineForm).toBeVisible();
    await expect(widgetPage.header).toContainText('Away right now');

    await widget.agentApi.setPresence('online');
    await expect(offlineForm).toBeHidden();
    await expect(widgetPage.textbox).toBeVisible();
    await expect.poll(() => widgetPage.api((api) => api.chatMode())).toBe('online');
  });
});

test.describe('widget: network', () => {
  test('widget: messages typed while the network is down are sent once it is back, each exactly once', async ({
    widget,
    widgetPage,
    context,
  }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Before the drop');
    await expect(widgetPage.message('Before the drop').getByText('Sent')).toBeVisible();
    const chat = await widget.agentApi.chatWith('Before the drop');

    await test.step('offline: the widget shows it is reconnecting and queues what is typed', async () => {
      await context.setOffline(true);
      await expect(widgetPage.reconnecting).toBeVisible();
      await widgetPage.say('Typed offline, one');
      await widgetPage.say('Typed offline, two');
      await expect(widgetPage.message('Typed offline, one').getByText('Waiting for connection')).toBeVisible();
      await expect(widgetPage.message('Typed offline, two').getByText('Waiting for connection')).toBeVisible();
    });

    await test.step('back online: the queue is sent, in order', async () => {
      await context.setOffline(false);
      await expect(widgetPage.reconnecting).toBeHidden({ timeout: 10_000 });
      await expect(widgetPage.message('Typed offline, two').getByText('Sent')).toBeVisible();
      expect(await widget.agentApi.texts(chat.id)).toEqual(['Before the drop', 'Typed offline, one', 'Typed offline, two']);
    });
  });

  test('widget: where no WebSocket can be opened, the chat goes on over long-polling', async ({ widget, widgetPage, page }) => {
    // A company proxy that refuses WebSockets: every handshake fails, and the socket falls back to
    // long-polling (made with fetch()).
    await page.addInitScript(() => {
      class RefusedWebSocket {
        readyState = 0;
        onerror: ((event: Event) => void) | null = null;
        onclose: ((event: { code: number }) => void) | null = null;
        constructor() {
          setTimeout(() => {
            this.readyState = 3;
            this.onerror?.(new Event('error'));
            this.onclose?.({ code: 1006 });
          });
        }
        send() {}
        close() {}
      }
      window.WebSocket = RefusedWebSocket as unknown as typeof WebSocket;
    });
    const polls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('transport=polling')) polls.push(request.resourceType());
    });
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Asked over long-polling');
    await expect(widgetPage.message('Asked over long-polling').getByText('Sent')).toBeVisible();
    const chat = await widget.agentApi.chatWith('Asked over long-polling');
    await widget.agentApi.say(chat.id, 'Answered over long-polling');
    await expect(widgetPage.messages.getByText('Answered over long-polling')).toBeVisible();
    expect(polls.length).toBeGreaterThan(0);
    expect(new Set(polls)).toEqual(new Set(['fetch']));
  });

  test('widget: when the answer to a message is lost, it is sent again and still arrives once', async ({ widget, widgetPage, page }) => {
    // The server stores the message, but its answer never reaches the widget and the connection drops:
    // the widget sends it again with the same client_msg_id once reconnected.
    let dropNextAnswer = false;
    // WebSocket only: under load the widget may fall back to long-polling, whose answers this route never sees.
    await page.route(/\/socket\.io\/.*transport=polling/, (route) => route.abort());
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      server.onMessage((frame) => {
        if (dropNextAnswer && typeof frame === 'string' && frame.startsWith('43/visitors,')) {
          dropNextAnswer = false;
          return void ws.close({ code: 1012, reason: 'e2e: answer lost' });
        }
        ws.send(frame);
      });
    });
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('First, to start the chat');
    await expect(widgetPage.message('First, to start the chat').getByText('Sent')).toBeVisible();
    const chat = await widget.agentApi.chatWith('First, to start the chat');

    dropNextAnswer = true;
    await widgetPage.say('Its answer gets lost');
    await expect(widgetPage.message('Its answer gets lost').getByText('Sent')).toBeVisible({ timeout: 10_000 });
    expect(dropNextAnswer).toBe(false);
    await expect(widgetPage.messages.getByRole('listitem').filter({ hasText: 'Its answer gets lost' })).toHaveCount(1);
    expect(await widget.agentApi.texts(chat.id)).toEqual(['First, to start the chat', 'Its answer gets lost']);
  });
});

test.describe('widget: what the agent sends', () => {
  test('widget: HTML in agent text is shown as text and never runs', async ({ widget, widgetPage }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Show me something');
    const chat = await widget.agentApi.chatWith('Show me something');
    const payloads = [
      '<img src=x onerror="top.__xss=1;window.__xss=1">',
      '<script>window.__xss=2</script>',
      '<a href="javascript:alert(1)">click</a> javascript:alert(1)',
    ];
    for (const text of payloads) await widget.agentApi.say(chat.id, text);
    for (const text of payloads) await expect(widgetPage.message(text)).toBeVisible();
    // The one image in the log is the agent's own photo beside their messages.
    await expect(widgetPage.messages.locator(`img:not([src="${widget.site.url}/pixel.png"]), script`)).toHaveCount(0);
    await expect(widgetPage.messages.getByRole('link')).toHaveCount(0);
    const frame = widgetPage.page.frames().find((f) => f.url().includes('/widget/frame.html'))!;
    expect(await frame.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(await widgetPage.page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  });

  test('widget: every message type of spec 2.1 is shown as people expect', async ({ widget, widgetPage }, testInfo) => {
    const { agentApi, site } = widget;
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await widgetPage.say('Send me the menu');
    const chat = await agentApi.chatWith('Send me the menu');
    const file = (name: string) => `${site.url}/${name}`;
    await agentApi.send(chat.id, {
      type: 'photo',
      file: file('pixel.png?full'),
      thumb: file('pixel.png?thumb'),
      file_name: 'shop.png',
      file_size: 2048,
      text: 'Our shop',
    });
    await agentApi.send(chat.id, { type: 'sticker', file: file('missing-sticker.png'), file_name: 'tea.png', file_size: 10, emoji: '🍵' });
    await agentApi.send(chat.id, {
      type: 'video',
      file: file('tour.mp4'),
      file_name: 'tour.mp4',
      file_size: 1_000_000,
      duration: 95,
      thumb: file('pixel.png?poster'),
    });
    await agentApi.send(chat.id, {
      type: 'audio',
      file: file('song.mp3'),
      file_name: 'song.mp3',
      file_size: 3000,
      performer: 'Tea Band',
      title: 'Steeping',
    });
    await agentApi.send(chat.id, { type: 'voice', file: file('voice.ogg'), file_name: 'voice.ogg', file_size: 900, duration: 7 });
    await agentApi.send(chat.id, { type: 'document', file: file('menu.pdf'), file_name: 'Tea menu.pdf', file_size: 123_456 });
    await agentApi.send(chat.id, { type: 'location', latitude: 48.8584, longitude: 2.2945, text: 'Our shop is here' });

    const log = widgetPage.messages;
    await expect(log.getByText('Our shop is here')).toBeVisible();
    await test.step('photo: the thumbnail, linked to the full image, with its caption', async () => {
      const photo = widgetPage.message('Our shop');
      await expect(photo.getByRole('img', { name: 'shop.png' })).toHaveAttribute('src', file('pixel.png?thumb'));
      await expect(photo.getByRole('link', { name: 'Photo: open full size' })).toHaveAttribute('href', file('pixel.png?full'));
    });
    await test.step('a sticker that cannot load falls back to its emoji', async () => {
      // Pictures load lazily: bring the top of the conversation into view.
      await log.evaluate((el) => el.scrollTo(0, 0));
      await expect(log.getByRole('img', { name: 'Sticker' })).toHaveText('🍵');
    });
    await test.step('video, audio and voice get players', async () => {
      await expect(log.locator('video')).toHaveAttribute('src', file('tour.mp4'));
      await expect(log.locator('video')).toHaveAttribute('poster', file('pixel.png?poster'));
      await expect(log.getByText('Tea Band – Steeping')).toBeVisible();
      await expect(log.getByText('Voice message · 0:07')).toBeVisible();
      await expect(log.locator('audio')).toHaveCount(2);
    });
    await test.step('a document is a download link with its name and size; a location, coordinates and a map', async () => {
      await expect(log.getByRole('link', { name: 'Tea menu.pdf (120.6 KB)' })).toHaveAttribute('href', file('menu.pdf'));
      await expect(log.getByText('Location: 48.85840, 2.29450')).toBeVisible();
      await expect(log.getByRole('link', { name: 'Open map' })).toHaveAttribute(
        'href',
        /^https:\/\/www\.openstreetmap\.org\/\?mlat=48\.8584&mlon=2\.2945/,
      );
    });
    await log.evaluate((el) => el.scrollTo(0, 0));
    await shot(widgetPage.page, testInfo, 'widget-media');
  });
});

test.describe('widget: page API and callbacks', () => {
  test('widget: every svc_api method answers as the spec says, and the callbacks follow the window', async ({
    widget,
    widgetPage,
    browser,
  }) => {
    const { agentApi } = widget;
    await widgetPage.goto(widget.site.url);
    const fields = [
      { title: 'Cart', key: 'Items', content: 'Sencha' },
      { key: 'Total', content: '14.50 €', link: 'https://shop.example/cart' },
    ];

    await test.step('before the chat is opened: answers at once, and no chat is loaded', async () => {
      expect(await widgetPage.api((api) => api.chatMode())).toBe('online');
      expect(await widgetPage.api((api) => api.getContactInfo())).toEqual({ name: '' });
      expect(await widgetPage.api((api) => api.setCustomData('not an array' as never))).toEqual({
        result: 'fail',
        reason: 'Custom data must be array.',
      });
      expect(await widgetPage.page.evaluate((f) => window.svc_api!.setCustomData(f), fields)).toEqual({ result: 'ok' });
      expect(await widgetPage.api((api) => api.setUserToken('customer-42'))).toEqual({ result: 'ok', token: 'customer-42' });
      expect(await widgetPage.api((api) => api.setUserToken(''))).toEqual({ result: 'fail', token: '' });
      expect(await widgetPage.api((api) => api.setUserToken(42 as never))).toEqual({ result: 'fail', token: false });
      await widgetPage.api((api) => api.setContactInfo({ name: 'Carla Caller', email: 'carla@example.com' }));
      expect(await widgetPage.api((api) => api.getContactInfo())).toEqual({ name: 'Carla Caller', email: 'carla@example.com' });
      await expect(widgetPage.frameElement).toHaveCount(0);
    });

    await test.step('a wrong call throws an error that says how to call it', async () => {
      const thrown = await widgetPage.page.evaluate(() => {
        try {
          window.svc_api!.open('call' as never);
          return 'no error';
        } catch (err) {
          return String(err);
        }
      });
      expect(thrown).toBe("TypeError: svc_api.open: pass nothing or {start:'call'}");
    });

    let number = 0;
    await test.step('getVisitorNumber loads the chat in the background and answers with the number', async () => {
      number = await widgetPage.api(
        (api) => new Promise<number>((resolve, reject) => api.getVisitorNumber((err, n) => (err ? reject(err) : resolve(n!)))),
      );
      expect(number).toBeGreaterThan(0);
      await expect(widgetPage.launcher).toHaveAccessibleName('Open chat');
    });

    await test.step("open({start:'call'}) shows the callback view, which says plainly that calls are turned off", async () => {
      await widgetPage.api((api) => api.open({ start: 'call' }));
      const unavailable = widgetPage.frame.getByRole('region', { name: 'Request a call back' }).getByRole('status');
      await expect(unavailable).toHaveText('Calls are not available right now: Calls are turned off for this site.');
      await widgetPage.frame.getByRole('button', { name: 'Write to us in the chat' }).click();
      await widgetPage.frame.getByRole('button', { name: 'Request a call back' }).click();
      await expect(unavailable).toBeVisible();
      await widgetPage.api((api) => api.open());
      await expect(widgetPage.textbox).toBeVisible();
      await widgetPage.api((api) => api.close());
      await expect(widgetPage.launcher).toHaveAccessibleName('Open chat');
      // The callbacks follow the window on the same channel, a moment after it is painted.
      await expect.poll(() => widgetPage.states()).toEqual(['call', 'chat', 'chat/call', 'chat', 'label']);
    });

    let chatId = 0;
    await test.step('a conversation: svc_onMessageSent, svc_onAccept, and closing minimizes it (chat/min)', async () => {
      await widgetPage.open();
      await widgetPage.say('I have a question');
      chatId = (await agentApi.chatWith('I have a question')).id;
      await agentApi.accept(chatId);
      await expect.poll(() => widgetPage.calls('svc_onAccept')).toHaveLength(1);
      expect(await widgetPage.calls('svc_onMessageSent')).toHaveLength(1);
      await widgetPage.textbox.press('Escape');
      await expect(widgetPage.launcher).toBeFocused();
      await expect.poll(async () => (await widgetPage.states()).slice(-2)).toEqual(['chat', 'chat/min']);
      expect(await widgetPage.calls('svc_onOpen')).toHaveLength(2);
      expect(await widgetPage.calls('svc_onClose')).toHaveLength(2);
      expect((await widgetPage.calls('svc_onResizeCallback')).length).toBeGreaterThanOrEqual(4);
    });

    await test.step('the agent sees what the page set; custom data updates live', async () => {
      const client = (await agentApi.chat(chatId)).client;
      expect(client).toMatchObject({ name: 'Carla Caller', email: 'carla@example.com', user_token: 'customer-42', visitor_number: number });
      expect(client.custom_data).toEqual(fields);
      await widgetPage.page.evaluate(() => window.svc_api!.setCustomData([{ key: 'Total', content: '29.00 €' }]));
      await expect.poll(async () => (await agentApi.chat(chatId)).client.custom_data).toEqual([{ key: 'Total', content: '29.00 €' }]);
    });

    await test.step('the contacts form introduces the visitor (svc_onIntroduction)', async () => {
      await widgetPage.launcher.click();
      await widgetPage.frame.getByRole('button', { name: 'Your contact details' }).click();
      await widgetPage.frame.getByRole('textbox', { name: 'Phone' }).fill('+33 1 23 45 67 89');
      await widgetPage.frame.getByRole('button', { name: 'Save' }).click();
      await expect(widgetPage.frame.getByText('Thank you! The team can see your details now.')).toBeVisible();
      await expect.poll(() => widgetPage.calls('svc_onIntroduction')).toHaveLength(1);
      await expect
        .poll(() => widgetPage.api((api) => api.getContactInfo()))
        .toEqual({ name: 'Carla Caller', email: 'carla@example.com', phone: '+33 1 23 45 67 89' });
      expect((await agentApi.chat(chatId)).client.phone).toBe('+33 1 23 45 67 89');
    });

    await test.step('visitor numbers are sequential: the next new visitor gets the next one', async () => {
      const other = await browser.newContext();
      const next = new WidgetPage(await other.newPage());
      await next.goto(widget.site.url);
      expect(await next.api((api) => new Promise((resolve) => api.getVisitorNumber((_err, n) => resolve(n))))).toBe(number + 1);
      await other.close();
    });
  });

  test('widget: a page callback that throws does not break the widget', async ({ widget, widgetPage, page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await widgetPage.goto(`${widget.site.url}/?throw=svc_onOpen`);
    await widgetPage.open();
    await widgetPage.say('Still working');
    await expect(widgetPage.message('Still working').getByText('Sent')).toBeVisible();
    expect(errors).toContain('host page bug in svc_onOpen');
    await expect.poll(() => widgetPage.states()).toEqual(['chat']);
  });

  test('widget: keyboard only, with labels for assistive technology', async ({ widget, widgetPage, page }) => {
    await widgetPage.goto(widget.site.url);
    await page.keyboard.press('Tab');
    await expect(widgetPage.launcher).toBeFocused();
    await expect(widgetPage.launcher).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Enter');
    await expect(widgetPage.textbox).toBeFocused();
    await expect(widgetPage.launcher).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.type('Typed with the keyboard');
    await page.keyboard.press('Enter');
    await expect(widgetPage.message('Typed with the keyboard').getByText('Sent')).toBeVisible();
    await expect(widgetPage.frame.getByRole('button', { name: 'Send message' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(widgetPage.launcher).toBeFocused();
    await expect(widgetPage.launcher).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('widget: on a phone', () => {
  test.use({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });

  test('widget: at 320x640 the open chat fills the screen', async ({ widget, widgetPage }, testInfo) => {
    await widgetPage.goto(widget.site.url);
    await shot(widgetPage.page, testInfo, 'widget-phone-closed');
    await widgetPage.launcher.tap();
    await expect(widgetPage.textbox).toBeVisible();
    expect(await widgetPage.frameElement.boundingBox()).toEqual({ x: 0, y: 0, width: 320, height: 640 });
    await expect(widgetPage.launcher).toBeHidden();
    await widgetPage.say('Hello from my phone');
    await expect(widgetPage.message('Hello from my phone').getByText('Sent')).toBeVisible();
    await expect(widgetPage.textbox).toBeInViewport();
    await shot(widgetPage.page, testInfo, 'widget-phone-open');
    await widgetPage.frame.getByRole('button', { name: 'Minimize chat' }).tap();
    await expect(widgetPage.launcher).toBeVisible();
    await expect(widgetPage.frameElement).toBeHidden();
  });
});
