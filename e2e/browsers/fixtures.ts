import { test as widgetTest } from '../support/widget-fixtures.ts';
import { AgentConsole } from './agent-console.ts';
import { chromiumEngine, launchChromium } from './chromium.ts';
import type { Engine, EngineName } from './engine.ts';
import { firefoxEngine, launchFirefox } from './firefox.ts';
import { startWebKitDriver, webkitEngine, type WebKitDriver } from './webkit.ts';
import { WidgetVisitor } from './widget-visitor.ts';

/** The running browser of a worker: each test opens a fresh engine context on it. */
interface RunningBrowser {
  newEngine(): Promise<Engine>;
  stop(): Promise<void>;
}

async function startBrowser(name: EngineName): Promise<RunningBrowser> {
  if (name === 'chromium') {
    const browser = await launchChromium();
    return { newEngine: () => chromiumEngine(browser), stop: () => browser.close() };
  }
  if (name === 'firefox') {
    const browser = await launchFirefox();
    return { newEngine: () => firefoxEngine(browser), stop: () => browser.close() };
  }
  if (name === 'webkit') return startWebKit();
  throw new Error(`no driver for ${name}`);
}

/**
 * WebKitWebDriver serves one session at a time, and each session is one MiniBrowser with its own profile: a
 * test that needs a second browser (the agent's, beside the visitor's) gets a second driver, kept for later tests.
 */
async function startWebKit(): Promise<RunningBrowser> {
  const idle: WebKitDriver[] = [await startWebKitDriver()];
  const all = [...idle];
  return {
    newEngine: async () => {
      let driver = idle.pop();
      if (!driver) all.push((driver = await startWebKitDriver()));
      const engine = await webkitEngine(driver);
      return {
        ...engine,
        close: async () => {
          await engine.close();
          idle.push(driver);
        },
      };
    },
    stop: async () => {
      await Promise.all(all.map((driver) => driver.stop()));
    },
  };
}

interface WorkerFixtures {
  /** The engine of the project (browsers.config.ts), named in every test's line. */
  engineName: EngineName;
  runningBrowser: RunningBrowser;
}

interface TestFixtures {
  /** A fresh engine context for this test: its own storage, shared by the tabs it opens. */
  engine: Engine;
  /** The visitor's first tab, with the widget page object on it. */
  visitor: WidgetVisitor;
  /** The agents' console in a tab of another engine context of the same engine (the agent's own browser). */
  agentConsole: AgentConsole;
}

export const test = widgetTest.extend<TestFixtures, WorkerFixtures>({
  engineName: ['firefox', { option: true, scope: 'worker' }],

  // One browser process (or WebDriver server) per worker, started on first use.
  runningBrowser: [
    async ({ engineName }, use) => {
      const running = await startBrowser(engineName);
      await use(running);
      await running.stop();
    },
    { scope: 'worker' },
  ],

  engine: async ({ runningBrowser }, use) => {
    const engine = await runningBrowser.newEngine();
    await use(engine);
    await engine.close();
  },

  visitor: async ({ engine }, use, testInfo) => {
    const visitor = new WidgetVisitor(await engine.newTab());
    await use(visitor);
    if (testInfo.status !== testInfo.expectedStatus) {
      const path = testInfo.outputPath('visitor.png');
      await visitor.tab.screenshot(path).then(
        () => testInfo.attach('visitor', { path, contentType: 'image/png' }),
        () => undefined,
      );
    }
  },

  agentConsole: async ({ runningBrowser }, use, testInfo) => {
    const engine = await runningBrowser.newEngine();
    const agentConsole = new AgentConsole(await engine.newTab());
    await use(agentConsole);
    if (testInfo.status !== testInfo.expectedStatus) {
      const path = testInfo.outputPath('agent-console.png');
      await agentConsole.tab.screenshot(path).then(
        () => testInfo.attach('agent console', { path, contentType: 'image/png' }),
        () => undefined,
      );
    }
    await engine.close();
  },
});

export { expect } from '@playwright/test';
