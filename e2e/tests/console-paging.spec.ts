import { expect, test } from '../support/fixtures.ts';

test.describe('console: paging', () => {
  test('console: the inbox counts every chat, loads more as the agent scrolls, and a message brings an unloaded chat to the top', async ({
    workspace,
    consolePage,
  }) => {
    const { agent } = workspace;
    const customers = Array.from({ length: 120 }, (_, i) =>
      workspace.customer({ id: 5000 + i, name: `Pager ${String(i).padStart(3, '0')}` }),
    );
    for (const c of customers) await c.say(`hello from ${c.sender.name}`);
    await consolePage.login(agent.email, agent.password);
    const entries = consolePage.inbox.getByRole('listitem');

    await test.step('the Open tab counts all 120 chats and shows the most recent first page', async () => {
      await expect(consolePage.tab('Open')).toContainText('Open120');
      await expect(entries).toHaveCount(50);
      await expect(entries.first()).toContainText('Pager 119');
    });

    await test.step('a message to the oldest chat, not loaded yet, brings it to the top', async () => {
      await customers[0]!.say('still waiting');
      await expect(entries.first()).toContainText('Pager 000');
      await expect(entries.first()).toContainText('still waiting');
      await expect(consolePage.tab('Open')).toContainText('Open120');
    });

    await test.step('scrolling down loads the further pages, each chat once', async () => {
      // 50 + the chat the message brought + the second page
      await consolePage.inbox.getByRole('button', { name: 'Load more chats' }).scrollIntoViewIfNeeded();
      await expect(entries).toHaveCount(101);
      await consolePage.inbox.getByRole('button', { name: 'Load more chats' }).scrollIntoViewIfNeeded();
      await expect(entries).toHaveCount(120);
      await expect(consolePage.inbox.getByRole('button', { name: 'Load more chats' })).toHaveCount(0);
      await expect(consolePage.chat('Pager 000')).toHaveCount(1);
      await expect(consolePage.chat('Pager 001')).toHaveCount(1);
    });
  });

  test('console: a long chat opens with its newest messages and loads older ones on scroll-up, keeping the view still', async ({
    workspace,
    consolePage,
  }) => {
    const { agent } = workspace;
    const talker = workspace.customer({ id: 6001, name: 'Long Talker' });
    for (let i = 1; i <= 130; i++) await talker.say(`line ${i}`);
    await consolePage.login(agent.email, agent.password);
    await consolePage.openChat('Long Talker');
    const earlier = consolePage.messages.getByRole('button', { name: 'Load earlier messages' });

    await test.step('the newest 50 messages, scrolled to the last', async () => {
      await expect(consolePage.message(/line 130$/)).toBeInViewport();
      await expect(earlier).toBeVisible();
    });

    await test.step('scrolling to the top loads the page before, and the message read stays in view', async () => {
      await consolePage.messages.evaluate((el) => (el.scrollTop = 0));
      await expect.poll(() => consolePage.messages.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
      await expect(consolePage.message(/line 81$/)).toBeInViewport();
      await expect(consolePage.message(/line 31$/)).not.toBeInViewport();
    });

    await test.step('down to the first message, after which nothing more is asked', async () => {
      await consolePage.messages.evaluate((el) => (el.scrollTop = 0));
      await expect(earlier).toHaveCount(0);
      await consolePage.messages.evaluate((el) => (el.scrollTop = 0));
      await expect(consolePage.message(/line 1$/)).toBeInViewport();
    });

    await test.step('a new message still arrives live at the bottom', async () => {
      await consolePage.messages.evaluate((el) => (el.scrollTop = el.scrollHeight));
      await talker.say('and one more');
      await expect(consolePage.message('and one more')).toBeInViewport();
    });
  });
});
