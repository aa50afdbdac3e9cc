import { expect, test } from '../support/widget-fixtures.ts';

// Issue 24: on a single-page app the visitor moves with the History API; agents follow the page they are on.
test.describe('widget: single-page apps', () => {
  test('widget: agents see each page of a single-page app: pushState, the back button, a hash and replaceState', async ({
    widget,
    widgetPage,
  }) => {
    const { page } = widgetPage;
    const app = `${widget.site.url}/app/`;
    await widgetPage.goto(app);
    await widgetPage.open();
    await widgetPage.say('Which teas are organic?');
    const { id } = await widget.agentApi.chatWith('Which teas are organic?');
    const seen = async () => {
      const { client } = await widget.agentApi.chat(id);
      return { url: client.url, title: client.page_title };
    };
    await expect.poll(seen).toEqual({ url: app, title: 'Host shop' });

    await test.step('a link of the app (pushState, then the title)', async () => {
      await page.getByRole('link', { name: 'Teas' }).click();
      await expect.poll(seen).toEqual({ url: `${widget.site.url}/app/teas`, title: 'Teas' });
    });
    await test.step('the back button (popstate)', async () => {
      await page.goBack();
      await expect.poll(seen).toEqual({ url: app, title: 'Host shop' });
    });
    await test.step('an anchor (hashchange)', async () => {
      await page.evaluate(() => (location.hash = 'reviews'));
      await expect.poll(seen).toEqual({ url: `${app}#reviews`, title: 'Host shop' });
    });
    await test.step('the app rewrites its address (replaceState)', async () => {
      await page.evaluate(() => history.replaceState({}, '', '/app/cart?utm_source=newsletter'));
      await expect
        .poll(async () => (await widget.agentApi.chat(id)).client)
        .toMatchObject({
          url: `${widget.site.url}/app/cart?utm_source=newsletter`,
          utm: { source: 'newsletter' },
        });
    });
    // The page was never loaded again: the conversation went on in the same frame.
    await expect(widgetPage.frame.getByText('Which teas are organic?')).toBeVisible();
  });
});
