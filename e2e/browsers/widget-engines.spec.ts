import { e2eEnv } from '../support/e2e-env.ts';
import { StrictCspSite } from '../support/strict-csp-site.ts';
import { setAppearance } from './channel-settings.ts';
import { expect, test } from './fixtures.ts';
import { TEXTBOX } from './widget-visitor.ts';

test.describe('widget: page api', () => {
  test('widget: svc_api opens and closes the chat and the page callbacks hear it', async ({ widget, visitor }) => {
    await visitor.goto(widget.site.url);
    expect(await visitor.api('typeof api.open')).toBe('function');
    await visitor.api('api.open()');
    await visitor.waitUntilOpen();
    await expect.poll(() => visitor.calls('svc_onOpen')).toHaveLength(1);
    await visitor.api('api.close()');
    await expect.poll(() => visitor.chatShown()).toBe(false);
    await expect.poll(() => visitor.calls('svc_onClose')).toHaveLength(1);
    expect(await visitor.launcherLabel()).toBe('Open chat');
  });
});

test.describe('widget: keyboard', () => {
  test('widget: Tab reaches the launcher, Space opens the chat in the text box, Enter sends, Esc closes back to the launcher', async ({
    widget,
    visitor,
    engineName,
  }) => {
    await visitor.goto(widget.site.url);
    await visitor.tab.press('Tab');
    await expect.poll(() => visitor.launcherFocused()).toBe(true);
    await visitor.tab.press('Space');
    await visitor.waitUntilOpen();
    // WebKitGTK 2.50 lets a script in the cross-origin chat frame call focus() only after the visitor has used
    // that frame: there the text box takes the focus with the first key typed (the product handles it, in
    // Composer.tsx), elsewhere at once. Either way what the visitor types lands in the box, with no click.
    if (engineName !== 'webkit') await expect.poll(() => visitor.focusedInChat()).toBe('textarea[Type your message]');
    await visitor.tab.keys('Hello, with the keyboard only');
    await expect.poll(() => visitor.focusedInChat()).toBe('textarea[Type your message]');
    await expect.poll(() => visitor.inChat(`document.querySelector('textarea').value`)).toBe('Hello, with the keyboard only');
    await visitor.tab.press('Enter');
    await visitor.expectMessage('Hello, with the keyboard only');
    await visitor.tab.press('Escape');
    await expect.poll(() => visitor.chatShown()).toBe(false);
    await expect.poll(() => visitor.launcherFocused()).toBe(true);
  });
});

test.describe('widget: right to left', () => {
  test("widget: the owner's Arabic lays the chat out right to left, in Arabic words", async ({ widget, visitor }) => {
    await setAppearance(widget, { language: 'ar' });
    await visitor.goto(widget.site.url);
    // Named in Arabic now: the launcher is the shadow root's one button.
    await visitor.tab.click('page', 'button');
    await expect.poll(() => visitor.chatShown()).toBe(true);
    await expect.poll(() => visitor.inChat(`document.documentElement.getAttribute('dir')`)).toBe('rtl');
    expect(await visitor.inChat(`document.documentElement.lang`)).toBe('ar');
    // The composer sits on the right: its text box starts right of the middle in a right-to-left row.
    expect(await visitor.inChat(`document.querySelector('textarea').getAttribute('aria-label')`)).toBe('اكتب رسالتك');
    expect(await visitor.inChat(`getComputedStyle(document.querySelector('textarea')).direction`)).toBe('rtl');
  });
});

test.describe('widget: phone', () => {
  test('widget: on a phone-sized screen the open chat fills it and the composer is inside it', async ({ widget, visitor }) => {
    await visitor.tab.setViewport(375, 667);
    await visitor.goto(widget.site.url);
    const width = await visitor.tab.evaluate<number>('innerWidth');
    expect(width, 'a phone-sized viewport').toBeLessThanOrEqual(480);
    await visitor.open();
    const box = await visitor.tab.evaluate<{ x: number; y: number; w: number; h: number; vw: number; vh: number }>(
      `(() => { const r = document.querySelector('svc-widget').shadowRoot.querySelector('iframe').getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height, vw: document.documentElement.clientWidth, vh: document.documentElement.clientHeight }; })()`,
    );
    expect(box).toEqual({ x: 0, y: 0, w: box.vw, h: box.vh, vw: box.vw, vh: box.vh });
    const composer = await visitor.inChat<{ bottom: number; height: number }>(
      `(() => ({ bottom: document.querySelector(${JSON.stringify(TEXTBOX)}).getBoundingClientRect().bottom, height: innerHeight }))()`,
    );
    expect(composer!.bottom).toBeLessThanOrEqual(composer!.height);
    await visitor.say('Hello from a phone');
    const chat = await widget.agentApi.chatWith('Hello from a phone');
    await widget.agentApi.say(chat.id, 'Hello, phone visitor!');
    await visitor.expectMessage('Hello, phone visitor!');
  });
});

test.describe('widget: strict Content-Security-Policy', () => {
  test('widget: the single-tag snippet works on a page with a strict policy, with no violation on the page', async ({
    widget,
    visitor,
  }) => {
    const site = await StrictCspSite.start(e2eEnv().baseUrl);
    try {
      site.embed = `<script src="/record-violations.js"></script>${widget.channel.embed!}`;
      await visitor.goto(site.url);
      await visitor.open();
      await visitor.say('Hello under a strict policy');
      const chat = await widget.agentApi.chatWith('Hello under a strict policy');
      await widget.agentApi.say(chat.id, 'Welcome, locked-down visitor');
      await visitor.expectMessage('Welcome, locked-down visitor');
      expect(await visitor.tab.evaluate('window.__violations')).toEqual([]);
    } finally {
      await site.close();
    }
  });
});
