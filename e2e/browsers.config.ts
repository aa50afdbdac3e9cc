import { defineConfig } from '@playwright/test';
import type { EngineName } from './browsers/engine.ts';

/**
 * `pnpm test:browsers`: the engine-neutral scenarios (browsers/*.spec.ts) in Chromium, Firefox ESR and WebKitGTK,
 * the engines Debian ships (Playwright's own Firefox and WebKit builds cannot be downloaded here): one scenario,
 * three engines. Same server setup as the Chromium suite; each project is one engine, named at the start of
 * every test line.
 */
export default defineConfig<object, { engineName: EngineName }>({
  testDir: './browsers',
  outputDir: './test-results/browsers',
  globalSetup: './browsers/global-setup.ts',
  globalTeardown: './global-teardown.ts',
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  timeout: 45_000,
  expect: { timeout: 7_000 },
  projects: (['chromium', 'firefox', 'webkit'] satisfies EngineName[]).map((engineName) => ({ name: engineName, use: { engineName } })),
});
