import type { Page } from '@playwright/test';

/**
 * Makes the page report itself hidden or visible, as when the agent switches to another browser tab and back:
 * headless Chromium keeps every page visible, so the document's state is overridden and the event fired.
 */
export async function setPageHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((hide) => {
    for (const [name, value] of [
      ['visibilityState', hide ? 'hidden' : 'visible'],
      ['hidden', hide],
    ] as const) {
      Object.defineProperty(document, name, { configurable: true, get: () => value });
    }
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}
