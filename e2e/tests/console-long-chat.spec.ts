import type { WebSocketRoute } from '@playwright/test';
import { requestJson } from '../support/http-json.ts';
import { domSize, lineText, rowY, scrollUpOnePage, seedLongChat, textsScrollingUp, topOfView } from '../support/long-chat.ts';
import { expect, test } from '../support/fixtures.ts';
import { e2eEnv } from '../support/e2e-env.ts';

const LONG_CHAT = 2_000;
/** Rows in the DOM at most, whatever the chat's length: a few screens of one-line messages. */
const MAX_ROWS = 80;
const MAX_ELEMENTS = 2_000;

/** The same row at the top of the view, within a pixel or two (scroll positions round to device pixels). */
function expectSamePlace(after: { text: string; y: number }, before: { text: string; y: number }) {
  expect(after.text).toBe(before.text);
  expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(2);
}

test.describe('console: long chats', () => {
  test.setTimeout(180_000);

  test('console: a chat of thousands of messages keeps only the rows near the view, holds what is read still and follows new messages at the bottom', async ({
    workspace,
    consolePage,
  }) => {
    const { agent, integrator } = workspace;
    const talker = workspace.customer({ name: 'Endless Talker' });
    const chatId = await seedLongChat(talker, LONG_CHAT, integrator.fileBase);
    await requestJson(`${e2eEnv().baseUrl}/api/v1/chats/${chatId}/notes`, {
      token: agent.token,
      body: { text: 'Private note: this customer writes a lot' },
    });
    await talker.say('the newest line');
    // Older pages can be held back, to look at the view before and after one is put above.
    let hold: Promise<void> | null = null;
    await consolePage.page.route(/\/api\/v1\/chats\/\d+\/messages\?limit=50&before=/, async (route) => {
      if (hold) await hold;
      await route.continue();
    });
    await consolePage.login(agent.email, agent.password);
    await consolePage.openChat('Endless Talker');
    const { messages } = consolePage;

    await test.step('it opens at the newest message with a few screens of rows in the DOM', async () => {
      await expect(consolePage.message('the newest line')).toBeInViewport();
      await expect(consolePage.message('Private note: this customer writes a lot')).toContainText('Private note');
      const size = await domSize(messages);
      expect(size.rows).toBeLessThanOrEqual(MAX_ROWS);
      expect(size.elements).toBeLessThan(MAX_ELEMENTS);
    });

    await test.step('scrolling up through twenty older pages keeps the DOM small', async () => {
      for (let page = 1; page <= 20; page++) {
        await scrollUpOnePage(messages);
        const size = await domSize(messages);
        expect(size.rows, `rows in the DOM after ${page} older pages`).toBeLessThanOrEqual(MAX_ROWS);
        expect(size.elements).toBeLessThan(MAX_ELEMENTS);
      }
    });

    await test.step('an older page put above leaves the message being read exactly where it was', async () => {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      await messages.evaluate((log) => (log.scrollTop = 0));
      // 21 pages of 50 are loaded: the newest line, the note, then lines 2,000 down to 953.
      await expect.poll(async () => (await topOfView(messages)).text).toMatch(/^line 953\./);
      const before = await rowY(messages, 'line 953.');
      hold = null;
      release();
      await expect.poll(() => messages.evaluate((log) => log.scrollTop)).toBeGreaterThan(1000);
      const after = await rowY(messages, 'line 953.');
      expect(after).not.toBeNull();
      expect(Math.abs(after! - before!)).toBeLessThanOrEqual(2);
      await expect(consolePage.message(lineText(952).slice(0, 9))).toHaveCount(1);
    });

    await test.step('while the agent reads older lines, a new message does not move the view', async () => {
      const before = await topOfView(messages);
      await talker.say('a message while reading');
      await expect(consolePage.chat('Endless Talker')).toContainText('a message while reading');
      expectSamePlace(await topOfView(messages), before);
    });

    await test.step('back at the bottom, the view follows new messages', async () => {
      await messages.press('End');
      await expect(consolePage.message('a message while reading')).toBeInViewport();
      await talker.say('and one more at the bottom');
      await expect(consolePage.message('and one more at the bottom')).toBeInViewport();
      // Rows entering and leaving the DOM are not read out; a new message is, once.
      await expect(messages).toHaveAttribute('aria-live', 'off');
      await expect(messages.getByRole('status')).toHaveText('Endless Talker: and one more at the bottom');
      expect((await domSize(messages)).rows).toBeLessThanOrEqual(MAX_ROWS);
    });
  });

  test('console: after a reconnect the inbox keeps its loaded pages, the open chat its older pages and place, and the missed messages arrive', async ({
    workspace,
    consolePage,
  }) => {
    const { agent, integrator } = workspace;
    const page = consolePage.page;
    const sockets: WebSocketRoute[] = [];
    let refuse = false;
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      if (refuse) return void ws.close({ code: 1011, reason: 'e2e: server away' });
      ws.connectToServer();
      sockets.push(ws);
    });
    const others = Array.from({ length: 110 }, (_, i) =>
      workspace.customer({ id: 7000 + i, name: `Waiting ${String(i).padStart(3, '0')}` }),
    );
    for (const c of others) await c.say('hello');
    const talker = workspace.customer({ name: 'Reconnect Talker' });
    await seedLongChat(talker, 300, integrator.fileBase);
    const entries = consolePage.inbox.getByRole('listitem');
    const { messages } = consolePage;

    await consolePage.login(agent.email, agent.password);
    await test.step('the agent loads a second page of the inbox and two older pages of the chat', async () => {
      await expect(entries).toHaveCount(50);
      await consolePage.inbox.getByRole('button', { name: 'Load more chats' }).scrollIntoViewIfNeeded();
      await expect(entries).toHaveCount(100);
      await consolePage.openChat('Reconnect Talker');
      await scrollUpOnePage(messages);
      await scrollUpOnePage(messages);
      await messages.evaluate((log) => (log.scrollTop = 600));
    });
    const read = await topOfView(messages);

    await test.step('the connection drops; the customer writes 60 messages and an unloaded chat one meanwhile', async () => {
      refuse = true;
      await Promise.all(sockets.splice(0).map((ws) => ws.close({ code: 1012, reason: 'e2e: restart' })));
      await expect(consolePage.reconnecting).toBeVisible();
      for (let i = 1; i <= 60; i++) await talker.say(`missed ${i}.`);
      await others[0]!.say('written while the agent was away');
    });

    await test.step('back online: nothing loaded is dropped and the view has not moved', async () => {
      refuse = false;
      await expect(consolePage.reconnecting).toBeHidden({ timeout: 30_000 });
      await expect(entries.first()).toContainText('written while the agent was away');
      // As many chats as were loaded, in today's order: the one that wrote came to the top, the last one
      // moved to the next page.
      await expect(entries).toHaveCount(100);
      await expect(consolePage.chat('Reconnect Talker')).toHaveCount(1);
      await expect(consolePage.inbox.getByRole('button', { name: 'Load more chats' })).toHaveCount(1);
      expectSamePlace(await topOfView(messages), read);
    });

    await test.step('every missed message is there, in order, below what was read', async () => {
      await messages.press('End');
      await expect(consolePage.message('missed 60.')).toBeInViewport();
      const seen = await textsScrollingUp(messages, 30);
      for (let i = 1; i <= 60; i++) expect(seen, `missed ${i}.`).toContain(`missed ${i}.`);
      expect(seen).toContain(lineText(299));
    });
  });
});
