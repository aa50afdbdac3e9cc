import { FakeBot } from '../support/widget-fake-bot.ts';
import { expect, test } from '../support/widget-fixtures.ts';

test.describe("console: the site owner's CRM", () => {
  test('console: the chat_accepted answer shows in the client panel, and the bind button sends chat_assigned', async ({
    widget,
    widgetPage,
    admin,
    consolePage,
  }) => {
    // The owner's server: a real HTTP server on 127.0.0.1 (FakeBot records every POST and answers it).
    const owner = await FakeBot.start(() => ({}));
    const answers = (body: any) =>
      body.event_name === 'chat_accepted'
        ? {
            result: 'ok',
            custom_data: [{ title: 'Plan', content: 'Gold <b>member</b>' }],
            enable_assign: true,
            crm_link: 'https://crm.example.com/cards/7',
          }
        : { result: 'ok' };
    owner.answerAll(answers);
    try {
      await admin.setWebhook(widget.channel, owner.url);
      await widgetPage.goto(widget.site.url);
      await widgetPage.open();
      await widgetPage.say('Hello from a gold member');

      await consolePage.login(widget.agent.email, widget.agent.password);
      await consolePage.openChat('Anonymous');
      await consolePage.accept();

      const crm = consolePage.page.getByRole('region', { name: "From the site's CRM" });
      await test.step('the answer is shown as text, with the CRM card link', async () => {
        await expect(crm).toContainText('Gold <b>member</b>');
        await expect(crm.getByRole('link', { name: 'Open CRM card' })).toHaveAttribute('href', 'https://crm.example.com/cards/7');
      });

      await test.step('binding sends chat_assigned with the CRM link', async () => {
        await crm.getByRole('button', { name: 'Bind to CRM card' }).click();
        await expect(crm).toContainText('Bound to the CRM card.');
        await expect
          .poll(() => owner.received.find((r) => r.body.event_name === 'chat_assigned')?.body.assign_to)
          .toBe('https://crm.example.com/cards/7');
      });
    } finally {
      await owner.close();
    }
  });
});
