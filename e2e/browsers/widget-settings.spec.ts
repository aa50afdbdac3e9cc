import { setAppearance, setTriggerRules } from './channel-settings.ts';
import { expect, test } from './fixtures.ts';

test.describe('widget: appearance', () => {
  test("widget: the owner's greeting opens the chat and the accent colour paints its header", async ({ widget, visitor }) => {
    await setAppearance(widget, { accent_color: '#ffd400', greeting: 'Hello! <b>Ask</b> about teas.' });
    await visitor.goto(widget.site.url);
    await visitor.open();
    // A light accent gets black text. Markup in a greeting is the owner's text, shown as typed.
    await visitor.expectMessage('Hello! <b>Ask</b> about teas.');
    expect(await visitor.inChat(`document.querySelector('[role=log] b')`)).toBeNull();
    const header = await visitor.inChat<{ background: string; color: string }>(
      `(() => { const s = getComputedStyle(document.querySelector('.head')); return { background: s.backgroundColor, color: s.color }; })()`,
    );
    expect(header).toEqual({ background: 'rgb(255, 212, 0)', color: 'rgb(0, 0, 0)' });
  });
});

test.describe('widget: language', () => {
  test('widget: the owner\'s "de" gives the German catalogue whatever the browser speaks', async ({ widget, visitor }) => {
    await setAppearance(widget, { language: 'de' });
    // Found by its place, the shadow root's one button: its name is German.
    const launcherName = () =>
      visitor.tab.evaluate<string>(`document.querySelector('svc-widget').shadowRoot.querySelector('button').getAttribute('aria-label')`);
    await visitor.goto(widget.site.url);
    await visitor.tab.click('page', 'button');
    await expect.poll(() => visitor.inChat(`document.documentElement.lang`)).toBe('de');
    // The launcher is named by the chat frame once loaded: in German from then on.
    await expect.poll(() => launcherName()).toBe('Chat minimieren');
    await visitor.expectMessage('Haben Sie Fragen? Wir helfen Ihnen gern weiter.');
    expect(await visitor.inChat(`document.querySelector('textarea').getAttribute('aria-label')`)).toBe('Nachricht eingeben');
    await visitor.tab.type('chat', 'textarea', 'Haben Sie grünen Tee?');
    await visitor.tab.press('Enter');
    const chat = await widget.agentApi.chatWith('Haben Sie grünen Tee?');
    await widget.agentApi.typing(chat.id, 'start');
    await visitor.expectInChat('body', 'Alex Agent schreibt…');
    await visitor.clickNamed('chat', 'button', 'Chat minimieren');
    await expect.poll(() => launcherName()).toBe('Chat öffnen');
  });
});

test.describe('widget: triggers', () => {
  test("widget: the channel's rule invites the visitor after a second on the page, and the agent sees the invitation", async ({
    widget,
    visitor,
  }) => {
    await setTriggerRules(widget, {
      rules: [
        {
          id: 'help-invite',
          enabled: true,
          frequency: 'once_per_visit',
          conditions: { time_on_page: 1 },
          action: { type: 'invite', text: 'Anything we can help with on this page?' },
        },
      ],
    });
    await visitor.goto(widget.site.url);
    await visitor.waitUntilOpen();
    await visitor.expectMessage('Anything we can help with on this page?');
    await expect.poll(() => visitor.calls('svc_onOpen')).toHaveLength(1);
    await visitor.say('Yes, which tea is for a cold?');
    const chat = await widget.agentApi.chatWith('Yes, which tea is for a cold?');
    expect(chat.client.invite).toBe('Anything we can help with on this page?');
  });
});
