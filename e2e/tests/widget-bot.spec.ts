import { FakeBot } from '../support/widget-fake-bot.ts';
import { expect, test } from '../support/widget-fixtures.ts';

const XSS = '<img src=x onerror="window.__xss=1">';

test.describe('widget: bot messages', () => {
  test('widget: BUTTONS and MARKDOWN from a bot render safely, a click answers with its button_id, and the visitor can ask for a person', async ({
    widget,
    widgetPage,
    admin,
  }) => {
    const bot = await FakeBot.start((event) => {
      const reply = (message: unknown) => ({ event: 'BOT_MESSAGE', id: `r-${event.id}`, chat_id: event.chat_id, message });
      if (event.message.button_id === 'track') {
        return reply({
          type: 'MARKDOWN',
          content: `**Your parcel** is *on its way*: [track it](https://example.com/track) ${XSS}`,
          text: 'Your parcel is on its way',
        });
      }
      return reply({ type: 'BUTTONS', title: 'How can I help?', buttons: [{ text: 'Track my order', id: 'track' }, { text: 'Returns' }] });
    });
    try {
      await admin.attachBot(widget.channel, bot.url);
      await widgetPage.goto(widget.site.url);
      await widgetPage.open();

      await test.step('the bot offers buttons', async () => {
        await widgetPage.say('hello');
        await expect(widgetPage.frame.getByRole('button', { name: 'Track my order' })).toBeVisible();
        await expect(widgetPage.frame.getByRole('group', { name: 'How can I help?' })).toBeVisible();
      });

      await test.step('a click sends the button text with its button_id', async () => {
        await widgetPage.frame.getByRole('button', { name: 'Track my order' }).click();
        await expect
          .poll(() => bot.received.find((r) => r.body.message?.button_id === 'track')?.body.message)
          .toMatchObject({
            type: 'TEXT',
            text: 'Track my order',
            button_id: 'track',
          });
      });

      await test.step('markdown shows bold, italic and a safe link; anything else stays text', async () => {
        const answer = widgetPage.message('on its way');
        await expect(answer.locator('strong')).toHaveText('Your parcel');
        await expect(answer.locator('em')).toHaveText('on its way');
        const link = answer.getByRole('link', { name: 'track it' });
        await expect(link).toHaveAttribute('href', 'https://example.com/track');
        await expect(link).toHaveAttribute('rel', /noopener/);
        await expect(answer).toContainText(XSS);
        await expect(answer.locator('img')).toHaveCount(0);
        expect(await widgetPage.page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      });

      await test.step('the visitor asks for a person: the chat goes to the agents', async () => {
        await widgetPage.frame.getByRole('button', { name: 'Talk to a person' }).click();
        await expect(widgetPage.message('The visitor asked for a person.')).toBeVisible();
        const open = await widget.agentApi.chats('open');
        expect(open.some((c) => c.channel_id === widget.channel.id)).toBe(true);
      });
    } finally {
      await bot.close();
    }
  });
});
