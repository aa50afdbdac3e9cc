import { expect, test } from '../support/widget-fixtures.ts';

test.describe('widget: on a phone (375x667, touch)', () => {
  test.use({ viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true });

  test('widget: tap to open a full-screen chat, send, receive the reply, tap the close button in its header', async ({
    widget,
    widgetPage,
  }, testInfo) => {
    await widgetPage.goto(widget.site.url);

    await test.step('the open chat fills the screen, with 16 px text boxes (no zoom on focus) and room for the notch', async () => {
      await widgetPage.launcher.tap();
      await expect(widgetPage.textbox).toBeVisible();
      expect(await widgetPage.frameElement.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 667 });
      await expect(widgetPage.textbox).toHaveCSS('font-size', '16px');
      await expect(widgetPage.frame.locator('meta[name="viewport"]')).toHaveAttribute('content', /viewport-fit=cover/);
      await expect(widgetPage.header).toHaveCSS('padding-top', '10px');
    });

    await test.step('send and receive', async () => {
      await widgetPage.textbox.tap();
      await widgetPage.say('Hello from a phone');
      await expect(widgetPage.message('Hello from a phone').getByText('Sent')).toBeVisible();
      const chat = await widget.agentApi.chatWith('Hello from a phone');
      await widget.agentApi.say(chat.id, 'Hello, phone visitor!');
      await expect(widgetPage.message('Hello, phone visitor!')).toBeInViewport();
      await expect(widgetPage.textbox).toBeInViewport();
      const path = testInfo.outputPath('widget-phone-375.png');
      await widgetPage.page.screenshot({ path });
      await testInfo.attach('widget-phone-375', { path, contentType: 'image/png' });
    });

    await test.step("the header's close button is visible and closes the chat", async () => {
      const close = widgetPage.header.getByRole('button', { name: 'Minimize chat' });
      await expect(close).toBeInViewport();
      await close.tap();
      await expect(widgetPage.frameElement).toBeHidden();
      await expect(widgetPage.launcher).toBeVisible();
      await expect(widgetPage.launcher).toHaveAccessibleName('Open chat');
    });
  });
});

test.describe('widget: on a desktop', () => {
  test('widget: the chat keeps its 370 px box and 15 px text', async ({ widget, widgetPage }) => {
    await widgetPage.goto(widget.site.url);
    await widgetPage.open();
    expect((await widgetPage.frameElement.boundingBox())?.width).toBe(370);
    await expect(widgetPage.textbox).toHaveCSS('font-size', '15px');
  });
});
