import { expect, type Locator } from '@playwright/test';
import type { Customer } from './customer.ts';

const PARAGRAPH = 'and a longer question that wraps over several lines of the conversation, '.repeat(4);

/** The text of the i-th message of a long chat: `line i.`, every fifth a paragraph, so rows differ in height. */
export const lineText = (i: number) => (i % 5 === 0 ? `line ${i}. ${PARAGRAPH}` : `line ${i}.`);

/**
 * Writes `count` messages as one customer through the Chat API, oldest first (`line 1.` to `line <count>.`),
 * every 100th a photo from `fileBase` with the line as its caption. Answers the chat's id.
 */
export async function seedLongChat(customer: Customer, count: number, fileBase: string): Promise<number> {
  let chatId = 0;
  for (let i = 1; i <= count; i++) {
    const answer =
      i % 100 === 0
        ? await customer.send({ type: 'photo', file: `${fileBase}/photo-${i}.png`, text: lineText(i) })
        : await customer.say(lineText(i));
    chatId = answer.chat_id ?? chatId;
  }
  return chatId;
}

/** The message rows in the DOM and the page's element count, as the agent's browser holds them. */
export async function domSize(messages: Locator): Promise<{ rows: number; elements: number }> {
  return messages.evaluate((log) => ({ rows: log.querySelectorAll('li').length, elements: document.getElementsByTagName('*').length }));
}

/** The message at the top edge of the log's view and where it is, in pixels from the top of the log. */
export async function topOfView(messages: Locator): Promise<{ text: string; y: number }> {
  return messages.evaluate((log) => {
    const top = log.getBoundingClientRect().top;
    const rows = Array.from(log.querySelectorAll<HTMLElement>('li[data-message-id]'));
    const row = rows.find((r) => r.getBoundingClientRect().bottom > top) ?? rows[0]!;
    return { text: row.querySelector('.msg-bubble')?.textContent ?? '', y: row.getBoundingClientRect().top - top };
  });
}

/** Scrolls the log to its top and waits until an older page was put above what was read. */
export async function scrollUpOnePage(messages: Locator): Promise<void> {
  await messages.evaluate((log) => (log.scrollTop = 0));
  await expect.poll(() => messages.evaluate((log) => log.scrollTop)).toBeGreaterThan(0);
}

/** Where the row whose text starts with `text` is, in pixels from the top of the log's view; null when not in the DOM. */
export async function rowY(messages: Locator, text: string): Promise<number | null> {
  return messages.evaluate((log, text) => {
    const rows = Array.from(log.querySelectorAll<HTMLElement>('li[data-message-id]'));
    const row = rows.find((r) => r.querySelector('.msg-bubble')?.textContent?.startsWith(text));
    return row ? row.getBoundingClientRect().top - log.getBoundingClientRect().top : null;
  }, text);
}

/** Scrolls the log up half a view at a time, `steps` times, and answers the text of every row seen on the way. */
export async function textsScrollingUp(messages: Locator, steps: number): Promise<string[]> {
  return messages.evaluate(async (log, steps) => {
    const seen = new Set<string>();
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let i = 0; i < steps; i++) {
      for (const bubble of Array.from(log.querySelectorAll('.msg-bubble'))) seen.add(bubble.textContent ?? '');
      log.scrollTop -= log.clientHeight / 2;
      await frame();
    }
    return [...seen];
  }, steps);
}
