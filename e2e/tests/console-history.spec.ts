import { e2eEnv } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { requestJson } from '../support/http-json.ts';

test.describe("console: the client's earlier chats", () => {
  test('console: the side panel lists the same client’s earlier chats as text, and one opens read-only in place', async ({
    workspace,
    consolePage,
    page,
  }) => {
    const { agent } = workspace;
    const close = (chatId: number) =>
      requestJson(`${e2eEnv().baseUrl}/api/v1/chats/${chatId}/close`, { method: 'POST', token: agent.token, body: {} });
    const nora = workspace.customer({ id: 'nora-1', name: 'Nora Return' });
    const first = await nora.say('<b>My shoes</b> are too small');
    await close(first.chat_id!);
    const second = await nora.say('Can I get a refund?');
    await close(second.chat_id!);
    await workspace.customer({ id: 'someone-else', name: 'Nora Other' }).say('Not the same client');
    await nora.say('Back again: the refund has not arrived');

    await consolePage.login(agent.email, agent.password);
    await consolePage.openChat('Nora Return');
    const earlier = consolePage.clientDetails.getByRole('region', { name: 'Earlier chats' });

    await test.step('the earlier chats show newest first, with their state and last message as text', async () => {
      const items = earlier.getByRole('listitem');
      await expect(items).toHaveCount(2);
      await expect(items.nth(0)).toContainText('Closed');
      await expect(items.nth(0)).toContainText('Can I get a refund?');
      await expect(items.nth(1)).toContainText('<b>My shoes</b> are too small');
      await expect(earlier.locator('b')).toHaveCount(0);
      await expect(earlier).not.toContainText('Not the same client');
      await page.screenshot({ path: test.info().outputPath('earlier-chats.png') });
    });

    await test.step('clicking one opens it in place, read-only, and its own earlier chats follow', async () => {
      await earlier.getByRole('button', { name: /My shoes/ }).click();
      await expect(consolePage.message('<b>My shoes</b> are too small')).toBeVisible();
      await expect(consolePage.conversation.getByText('This chat is closed.')).toBeVisible();
      await expect(consolePage.replyBox).toHaveCount(0);
      await expect(earlier.getByRole('listitem')).toHaveCount(2);
      await expect(earlier).toContainText('Back again: the refund has not arrived');
      await page.screenshot({ path: test.info().outputPath('earlier-chat-opened.png') });
    });

    await test.step('the current chat opens again from the list', async () => {
      await earlier.getByRole('button', { name: /Back again/ }).click();
      await expect(consolePage.message('Back again: the refund has not arrived')).toBeVisible();
      await expect(consolePage.replyBox).toBeVisible();
    });
  });
});
