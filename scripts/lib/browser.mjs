// Finds a Chromium for the end-to-end tests: CHROMIUM_PATH, Debian's /usr/bin/chromium, or Playwright's
// own; installs one when it can (apt-get as root, else Playwright's download), else says how.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function playwrightChromium() {
  try {
    const require = createRequire(path.resolve('e2e/package.json'));
    const { chromium } = require('@playwright/test');
    const p = chromium.executablePath();
    return p && fs.existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

export function findBrowser() {
  if (process.env.CHROMIUM_PATH && fs.existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return candidates.find((p) => fs.existsSync(p)) ?? playwrightChromium();
}

export function ensureBrowser() {
  let found = findBrowser();
  if (found) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    console.log("No Chromium found: installing Debian's chromium with apt-get...");
    spawnSync('sh', ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium'], { stdio: 'inherit' });
    found = findBrowser();
    if (found) return found;
  }
  console.log("No Chromium found: trying Playwright's own download...");
  spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit', cwd: 'e2e' });
  found = findBrowser();
  if (found) return found;
  console.error(
    [
      'No Chromium for the end-to-end tests. Install one, then run the tests again:',
      '  Debian/Ubuntu (as root):  apt-get update && apt-get install -y chromium',
      '  anywhere with internet:   pnpm --filter @svc/e2e exec playwright install chromium',
      '  or point CHROMIUM_PATH at an installed Chromium or Chrome.',
    ].join('\n'),
  );
  process.exit(1);
}
