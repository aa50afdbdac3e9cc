import { expect } from '@playwright/test';
import type { VisitorTab, Where } from './engine.ts';

/**
 * Clicks the first element matching `css` in `where` whose accessible name (its aria-label, else its text) is
 * `name`, or contains it with `{ containing: true }`, as a user picks a button by what it says. The element is
 * marked for the driver's CSS lookup first (drivers find elements by CSS only). Waits for it to appear.
 */
export async function clickNamed(tab: VisitorTab, where: Where, css: string, name: string, options: { containing?: boolean } = {}) {
  const mark = `(() => {
    document.querySelectorAll('[data-e2e-pick]').forEach((el) => el.removeAttribute('data-e2e-pick'));
    const hit = [...document.querySelectorAll(${JSON.stringify(css)})].find((el) => {
      const label = el.getAttribute('aria-label') ?? el.textContent.trim();
      return ${options.containing ? `label.includes(${JSON.stringify(name)})` : `label === ${JSON.stringify(name)}`};
    });
    hit?.setAttribute('data-e2e-pick', '');
    return !!hit;
  })()`;
  await expect
    .poll(async () => (where === 'chat' ? await tab.evaluateInChat<boolean>(mark) : await tab.evaluate<boolean>(mark)), {
      message: `a ${css} named "${name}"`,
    })
    .toBe(true);
  await tab.click(where, '[data-e2e-pick]');
}
