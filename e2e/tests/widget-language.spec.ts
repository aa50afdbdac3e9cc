import type { AppearanceInput } from '@svc/protocol';
import type { Page } from '@playwright/test';
import { e2eEnv } from '../support/e2e-env.ts';
import { requestJson } from '../support/http-json.ts';
import { expect, test, type WidgetWorkspace } from '../support/widget-fixtures.ts';

/** The owner sets the look and language of the widget channel, as the admin panel does. */
async function setAppearance(widget: WidgetWorkspace, appearance: AppearanceInput): Promise<void> {
  const { baseUrl, adminToken } = e2eEnv();
  await requestJson(`${baseUrl}/api/v1/channels/${widget.channel.id}/appearance`, { method: 'PUT', token: adminToken, body: appearance });
}

/**
 * The widget in any language: the launcher is found by its place (the shadow root's one button), the rest by
 * the words the visitor reads in that language.
 */
function chatIn(page: Page) {
  const frame = page.frameLocator('iframe[title="Chat window"]');
  return {
    launcher: page.locator('svc-widget').getByRole('button'),
    frame,
    html: frame.locator('html'),
    log: frame.getByRole('log'),
  };
}

test.describe('widget: language (browser in German)', () => {
  test.use({ locale: 'de-DE' });

  test('widget: with language auto a German browser gets the German chat, greeting and launcher', async ({ widget, page }) => {
    await page.goto(widget.site.url);
    const chat = chatIn(page);
    await chat.launcher.click();

    await test.step('the frame is German: <html lang="de">, the words of the German catalogue', async () => {
      await expect(chat.html).toHaveAttribute('lang', 'de');
      await expect(chat.html).toHaveAttribute('dir', 'ltr');
      await expect(chat.frame.getByRole('textbox', { name: 'Nachricht eingeben' })).toBeVisible();
      await expect(chat.frame.getByRole('button', { name: 'Nachricht senden' })).toBeVisible();
      await expect(chat.log.getByText('Haben Sie Fragen? Wir helfen Ihnen gern weiter.')).toBeVisible();
      await expect(chat.launcher).toHaveAccessibleName('Chat minimieren');
    });

    await test.step('a message and an answer carry German words and times', async () => {
      await chat.frame.getByRole('textbox', { name: 'Nachricht eingeben' }).fill('Haben Sie grünen Tee?');
      await chat.frame.getByRole('textbox', { name: 'Nachricht eingeben' }).press('Enter');
      const sent = chat.log.getByRole('listitem').filter({ hasText: 'Haben Sie grünen Tee?' });
      await expect(sent.getByText('Gesendet')).toBeVisible();
      // 24-hour time, as German readers expect it.
      await expect(sent.locator('time')).toHaveText(/^\d{2}:\d{2}$/);
      const agentChat = await widget.agentApi.chatWith('Haben Sie grünen Tee?');
      await widget.agentApi.typing(agentChat.id, 'start');
      await expect(chat.frame.getByText('Alex Agent schreibt…')).toBeVisible();
      await widget.agentApi.say(agentChat.id, 'Ja, Sencha.');
      await expect(chat.log.getByRole('listitem').filter({ hasText: 'Ja, Sencha.' })).toBeVisible();
    });

    await test.step('closed, the launcher counts unread messages in German', async () => {
      await chat.frame.getByRole('button', { name: 'Chat minimieren' }).click();
      await expect(chat.launcher).toHaveAccessibleName('Chat öffnen');
      const agentChat = await widget.agentApi.chatWith('Haben Sie grünen Tee?');
      await widget.agentApi.say(agentChat.id, 'Und Matcha.');
      await widget.agentApi.say(agentChat.id, 'Und Oolong.');
      await expect(chat.launcher).toHaveAccessibleName('Chat öffnen, 2 ungelesene Nachrichten');
    });
  });

  test("widget: the owner's German greeting shows to German readers, and the greeting is never sent", async ({ widget, page }) => {
    await setAppearance(widget, { greeting: 'Welcome to the tea shop!', texts: { de: { greeting: 'Willkommen im Teeladen!' } } });
    await page.goto(widget.site.url);
    const chat = chatIn(page);
    await chat.launcher.click();

    await test.step('the empty chat opens with the German greeting as a bubble from the team', async () => {
      const greeting = chat.log.getByRole('listitem').filter({ hasText: 'Willkommen im Teeladen!' });
      await expect(greeting).toBeVisible();
      await expect(greeting).toContainText(widget.channel.name);
      await expect(chat.log.getByText('Welcome to the tea shop!')).toHaveCount(0);
    });

    await test.step('no chat exists before the visitor writes; then the agent sees only what the visitor wrote', async () => {
      expect(await widget.agentApi.chats()).toEqual([]);
      await chat.frame.getByRole('textbox', { name: 'Nachricht eingeben' }).fill('Hallo');
      await chat.frame.getByRole('textbox', { name: 'Nachricht eingeben' }).press('Enter');
      const agentChat = await widget.agentApi.chatWith('Hallo');
      const texts = (await widget.agentApi.messages(agentChat.id)).map((m) => m.text);
      expect(texts).toEqual(['Hallo']);
      // The greeting stays as the first bubble, above the message that answers it.
      await expect(chat.log.getByRole('listitem').first()).toContainText('Willkommen im Teeladen!');
      await expect(chat.log.getByRole('listitem').nth(1)).toContainText('Hallo');
    });
  });

  test("widget: the owner's fixed Arabic wins over the German browser, right to left and mirrored", async ({ widget, page }) => {
    await setAppearance(widget, { language: 'ar' });
    await page.goto(widget.site.url);
    const chat = chatIn(page);
    await chat.launcher.click();
    const textbox = chat.frame.getByRole('textbox', { name: 'اكتب رسالتك' });

    await test.step('<html lang="ar" dir="rtl">, Arabic words', async () => {
      await expect(chat.html).toHaveAttribute('lang', 'ar');
      await expect(chat.html).toHaveAttribute('dir', 'rtl');
      await expect(textbox).toBeVisible();
      await expect(chat.launcher).toHaveAccessibleName('تصغير الدردشة');
    });

    await test.step("the layout mirrors: the visitor's bubble on the left, the agent's on the right, send at the left", async () => {
      await textbox.fill('مرحبا');
      await textbox.press('Enter');
      const agentChat = await widget.agentApi.chatWith('مرحبا');
      await widget.agentApi.say(agentChat.id, 'أهلا بك');
      const mine = (await chat.log.getByRole('listitem').filter({ hasText: 'مرحبا' }).boundingBox())!;
      const theirs = (await chat.log.getByRole('listitem').filter({ hasText: 'أهلا بك' }).boundingBox())!;
      const log = (await chat.log.boundingBox())!;
      expect(mine.x - log.x).toBeLessThan(log.x + log.width - (mine.x + mine.width));
      expect(theirs.x - log.x).toBeGreaterThan(log.x + log.width - (theirs.x + theirs.width));
      const send = (await chat.frame.getByRole('button', { name: 'إرسال الرسالة' }).boundingBox())!;
      const box = (await textbox.boundingBox())!;
      expect(send.x + send.width).toBeLessThanOrEqual(box.x);
    });
  });
});

test.describe('widget: look', () => {
  test("widget: the owner's accent colours the header, the visitor's bubbles and the send button, with readable text", async ({
    widget,
    widgetPage,
  }) => {
    await setAppearance(widget, { accent_color: '#FFD400', title: 'Tea help' });
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    const send = widgetPage.frame.getByRole('button', { name: 'Send message' });

    await test.step('the title and the accent with black text on it (white would not reach 4.5:1)', async () => {
      await expect(widgetPage.header.getByRole('heading', { name: 'Tea help' })).toBeVisible();
      await expect(widgetPage.header).toHaveCSS('background-color', 'rgb(255, 212, 0)');
      await expect(widgetPage.header).toHaveCSS('color', 'rgb(0, 0, 0)');
      await widgetPage.textbox.fill('Hello');
      await expect(send).toHaveCSS('background-color', 'rgb(255, 212, 0)');
      await expect(send).toHaveCSS('color', 'rgb(0, 0, 0)');
      await widgetPage.textbox.press('Enter');
      await expect(widgetPage.message('Hello').getByText('Hello', { exact: true })).toHaveCSS('background-color', 'rgb(255, 212, 0)');
    });

    await test.step("the agent's photo beside their messages and in the header once they take the chat", async () => {
      const chat = await widget.agentApi.chatWith('Hello');
      await widget.agentApi.accept(chat.id);
      await widget.agentApi.say(chat.id, 'Hi, how can I help?');
      const answer = widgetPage.message('Hi, how can I help?');
      await expect(answer.locator('img')).toHaveAttribute('src', `${widget.site.url}/pixel.png`);
      await expect(widgetPage.header.getByRole('heading', { name: 'Alex Agent' })).toBeVisible();
      await expect(widgetPage.header.locator('img')).toHaveAttribute('src', `${widget.site.url}/pixel.png`);
    });
  });

  test('widget: an agent without a photo shows as initials, and markup in a title stays text', async ({ widget, widgetPage }) => {
    const { baseUrl, adminToken } = e2eEnv();
    await requestJson(`${baseUrl}/api/v1/agents/${widget.agent.id}`, { method: 'PATCH', token: adminToken, body: { photo: null } });
    await setAppearance(widget, { title: '<img src=x onerror=alert(1)>' });
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    await expect(widgetPage.header.getByRole('heading', { name: '<img src=x onerror=alert(1)>' })).toBeVisible();
    await expect(widgetPage.header.locator('img')).toHaveCount(0);
    await widgetPage.say('Anyone there?');
    const chat = await widget.agentApi.chatWith('Anyone there?');
    await widget.agentApi.say(chat.id, 'Yes!');
    await expect(widgetPage.message('Yes!').getByText('AA', { exact: true })).toBeVisible();
  });
});
