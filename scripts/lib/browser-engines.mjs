// Firefox ESR and WebKitGTK for `pnpm test:browsers` (issue 22), from Debian as Chromium is: installed with
// apt-get when run as root, else the exact command to run is printed, loudly, and those tests are not run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** Debian's packages and how each is found; paths as e2e/browsers/firefox.ts and webkit.ts look for them. */
const packages = [
  { name: 'firefox-esr', found: () => fs.existsSync(process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr') },
  { name: 'webkit2gtk-driver', found: () => onPath('WebKitWebDriver') },
  { name: 'xvfb', found: () => onPath('xvfb-run') },
];

export const BROWSER_ENGINES_INSTALL = `apt-get update && apt-get install -y ${packages.map((p) => p.name).join(' ')}`;

/** The packages still missing (none: Firefox ESR, WebKitWebDriver and xvfb-run are there), installing them
 * first when it can. */
export function ensureBrowserEngines() {
  let missing = packages.filter((p) => !p.found());
  if (missing.length === 0) return [];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && onPath('apt-get')) {
    const names = missing.map((p) => p.name).join(' ');
    console.log(`Installing the engines of pnpm test:browsers with apt-get: ${names}`);
    spawnSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${names}`], { stdio: 'inherit' });
    missing = packages.filter((p) => !p.found());
    if (missing.length === 0) return [];
  }
  const names = missing.map((p) => p.name);
  warnEnginesMissing(names);
  return names;
}

export function warnEnginesMissing(names) {
  const bar = '!'.repeat(100);
  console.error(
    [
      '',
      bar,
      `NOT RUN: the widget tests in Firefox and WebKit (pnpm test:browsers): ${names.join(', ')} not installed.`,
      `Install them (as root), then run the tests again:  ${BROWSER_ENGINES_INSTALL}`,
      bar,
      '',
    ].join('\n'),
  );
}
