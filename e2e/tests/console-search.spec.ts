import { expect, test } from '../support/fixtures.ts';

test.describe('console: search', () => {
  test('console: the search box finds a word in an old message of a long chat, marks it, and opens the chat at that message', async ({
    workspace,
    consolePage,
  }) => {
    const { agent } = workspace;
    const talker = workspace.customer({ id: 7001, name: 'Zoë Deepdive', email: 'zoe.deepdive@mail.example' });
    for (let i = 1; i <= 120; i++) await talker.say(i === 7 ? 'Do you still sell the café crème blend?' : `line ${i}`);
    const other = workspace.customer({ id: 7002, name: 'Markup Tester' });
    await other.say('<img src=x onerror="document.title=1"> creme <b>bold</b>');
    await consolePage.login(agent.email, agent.password);
    const search = consolePage.inbox.getByRole('searchbox', { name: 'Search chats' });
    const results = consolePage.inbox.getByRole('list').filter({ has: consolePage.page.locator('mark') });

    await test.step('typing "cafe creme" lists the message with its words marked, newest first', async () => {
      await search.fill('cafe creme');
      const hit = results.getByRole('listitem').filter({ hasText: 'Zoë Deepdive' });
      await expect(hit).toHaveCount(1);
      await expect(hit.locator('mark')).toHaveText(['café', 'crème']);
      await expect(hit).toContainText('Do you still sell the café crème blend?');
      await consolePage.page.screenshot({ path: 'e2e/test-results/console-search-results.png' });
    });

    await test.step("a customer's markup is shown as text, never as HTML", async () => {
      await search.fill('creme');
      const markup = results.getByRole('listitem').filter({ hasText: 'Markup Tester' });
      await expect(markup).toContainText('<img src=x onerror="document.title=1"> creme <b>bold</b>');
      await expect(markup.locator('img, b')).toHaveCount(0);
      await expect(markup.locator('mark')).toHaveText(['creme']);
    });

    await test.step('a word of the e-mail finds the customer', async () => {
      await search.fill('deepdive');
      await expect(results.getByRole('listitem').filter({ hasText: 'Customer details' })).toContainText('zoe.deepdive@mail.example');
    });

    await test.step('opening the result opens the chat scrolled to that message, 114 messages above its newest', async () => {
      await search.fill('cafe creme');
      await results.getByRole('listitem').filter({ hasText: 'Zoë Deepdive' }).getByRole('button').click();
      await expect(consolePage.conversation.getByRole('heading', { name: 'Zoë Deepdive', exact: true })).toBeVisible();
      const message = consolePage.message('Do you still sell the café crème blend?');
      await expect(message).toBeInViewport();
      await expect(consolePage.message(/line 120$/)).not.toBeInViewport();
      await consolePage.page.screenshot({ path: 'e2e/test-results/console-search-opened.png' });
    });

    await test.step('Escape clears the search', async () => {
      await search.focus();
      await search.press('Escape');
      await expect(search).toHaveValue('');
      await expect(results).toHaveCount(0);
    });
  });
});
