import type { Browser } from 'puppeteer-core';
import { test as widgetTest } from '../support/widget-fixtures.ts';
import type { Engine, EngineName, VisitorTab } from './engine.ts';
import { firefoxEngine, launchFirefox } from './firefox.ts';
import { WidgetVisitor } from './widget-visitor.ts';

interface EngineFixtures {
  /** The engine of the project (browsers.config.ts), named in every test's title line. */
  engineName: EngineName;
  firefox: Browser;
}

interface TabFixtures {
  /** A fresh engine context for this test: its own storage, shared by the tabs it opens. */
  engine: Engine;
  /** The visitor's first tab, with the widget page object on it. */
  visitor: WidgetVisitor;
}

export const test = widgetTest.extend<TabFixtures, EngineFixtures>({
  engineName: ['firefox', { option: true, scope: 'worker' }],

  // One browser process per worker; each test gets its own context of it.
  firefox: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern
    async ({}, use) => {
      const browser = await launchFirefox();
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],

  engine: async ({ engineName, firefox }, use) => {
    if (engineName !== 'firefox') throw new Error(`no driver for ${engineName} yet`);
    const engine = await firefoxEngine(firefox);
    await use(engine);
    await engine.close();
  },

  visitor: async ({ engine }, use) => {
    const tab: VisitorTab = await engine.newTab();
    await use(new WidgetVisitor(tab));
  },
});

export { expect } from '@playwright/test';
