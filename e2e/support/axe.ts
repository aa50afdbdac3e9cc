import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The rules of WCAG 2.1 levels A and AA that axe-core checks. */
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Runs axe-core over the page and the frames in it (the chat frame and the admin panel's preview too) and
 * fails on any violation of impact serious or critical, listing each one (rule, impact, the elements it
 * found), so that the failure says what to fix.
 */
export async function expectNoSeriousA11yViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}; at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  expect(serious, `axe-core found serious or critical violations in ${what}`).toEqual([]);
}
