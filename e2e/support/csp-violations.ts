import type { Page } from '@playwright/test';

export interface CspViolation {
  directive: string;
  blocked: string;
  origin: string;
}

/** Records every `securitypolicyviolation` in the page and its frames, from before any script of the page
 * runs, and Chromium's console reports of refused loads; call the function returned to read them. */
export async function recordCspViolations(page: Page): Promise<() => Promise<CspViolation[]>> {
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string; origin: string }[] = [];
    (window as unknown as { __cspViolations: typeof seen }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI, origin: location.origin }),
    );
  });
  const reported: string[] = [];
  page.on('console', (message) => /Content Security Policy|Refused to/i.test(message.text()) && reported.push(message.text()));
  return async () => {
    const all: CspViolation[] = [];
    for (const frame of page.frames())
      all.push(
        ...(await frame.evaluate(() => (window as unknown as { __cspViolations?: CspViolation[] }).__cspViolations ?? []).catch(() => [])),
      );
    return [...all, ...reported.map((text) => ({ directive: 'console', blocked: text, origin: '' }))];
  };
}
