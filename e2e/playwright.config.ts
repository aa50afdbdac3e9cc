import fs from 'node:fs';
import { chromium, defineConfig } from '@playwright/test';

/**
 * The browser: CHROMIUM_PATH, else the distribution's /usr/bin/chromium, else Playwright's own download
 * (executablePath left undefined). With none of them the run stops here and says how to get one.
 */
function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return fromEnv;
  }
  if (fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  if (fs.existsSync(chromium.executablePath())) return undefined;
  throw new Error(
    'No Chromium found for the end-to-end tests. Install one: `apt-get install -y chromium` (as root), ' +
      'or `npx playwright install chromium`, or point CHROMIUM_PATH at a Chromium binary.',
  );
}

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  workers: 1,
  fullyParallel: false,
  retries: process.env.CI ? 1 : 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    browserName: 'chromium',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumExecutable(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
