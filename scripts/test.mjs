// `pnpm test` / `npm test`: install, find a browser, build, then typecheck, lint, format check, unit and
// integration tests (Vitest, on SQLite, then the integration suite again on PostgreSQL), the fault suite at
// reduced sizes (one test per scenario and target, see docs/faults.md), end-to-end tests (Playwright, Chromium)
// and the engine-neutral scenarios in Chromium, Firefox and WebKit (`pnpm test:browsers`), and close with one summary line.
import fs from 'node:fs';
import { ensureBrowser } from './lib/browser.mjs';
import { ensureBrowserEngines, warnEnginesMissing } from './lib/browser-engines.mjs';
import { installCommand, installMissingEngines, missingEngines } from './lib/missing-engines.mjs';
import { ensureInstalled, pnpm } from './lib/pnpm.mjs';

const resultsDir = 'test-results';
fs.mkdirSync(resultsDir, { recursive: true });

const inCi = process.env.CI === 'true' || process.env.CI === '1';
ensureInstalled();
installOrWarnMissingEngines();
const browser = ensureBrowser();
const enginesMissing = ensureBrowserEngines();
const otherEngines = enginesMissing.length === 0;
pnpm(['build']);
pnpm(['check']);

const vitestJson = `${resultsDir}/vitest.json`;
const playwrightJson = `${resultsDir}/playwright.json`;
const faultsJson = `${resultsDir}/faults.json`;
const browsersJson = `${resultsDir}/browsers.json`;
const postgresJson = `${resultsDir}/vitest-postgres.json`;
for (const file of [vitestJson, postgresJson, playwrightJson, faultsJson, browsersJson]) fs.rmSync(file, { force: true });
const unitCode = pnpm(['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`], {
  allowFailure: true,
});
// The same integration suite on PostgreSQL (the pg-* files test that store directly and ran above already;
// the sqlite-* files are about SQLite's own file).
const onPostgres = inCi || !missingEngines().some((m) => m.engine === 'postgres');
const postgresCode = onPostgres
  ? pnpm(
      [
        'exec',
        'vitest',
        'run',
        'server/test',
        '--exclude=server/test/pg-*.test.ts',
        '--exclude=server/test/sqlite-*.test.ts',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${postgresJson}`,
      ],
      { allowFailure: true, env: { SVC_TEST_DB: 'postgres' } },
    )
  : 0;
const faultsCode = pnpm(['exec', 'tsx', 'server/faults/run.ts', '--reduced', `--json=${faultsJson}`], { allowFailure: true });
const e2eCode = pnpm(['exec', 'playwright', 'test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
  allowFailure: true,
  env: { CHROMIUM_PATH: browser, PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightJson, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
});
// Firefox and WebKit: never skipped in CI (the missing engines count as a failure there), loudly elsewhere.
const browsersCode = otherEngines
  ? pnpm(['test:browsers', '--reporter=list,json'], {
      allowFailure: true,
      env: { CHROMIUM_PATH: browser, PLAYWRIGHT_JSON_OUTPUT_FILE: browsersJson, PLAYWRIGHT_JSON_OUTPUT_NAME: browsersJson },
    })
  : 0;

const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined);
const unit = read(vitestJson);
const onPg = read(postgresJson);
const e2e = read(playwrightJson);
const faults = read(faultsJson) ?? [];
const engines = read(browsersJson);
const faultsPassed = faults.filter((r) => r.passed).length;
const faultsFailed = faults.length - faultsPassed;
const passed =
  (unit?.numPassedTests ?? 0) + (onPg?.numPassedTests ?? 0) + faultsPassed + (e2e?.stats?.expected ?? 0) + (e2e?.stats?.flaky ?? 0);
const failed =
  (unit?.numFailedTests ?? 0) +
  (onPg?.numFailedTests ?? 0) +
  faultsFailed +
  (e2e?.stats?.unexpected ?? 0) +
  (unitCode !== 0 && !unit?.numFailedTests ? 1 : 0) +
  (postgresCode !== 0 && !onPg?.numFailedTests ? 1 : 0) +
  (faultsCode !== 0 && !faultsFailed ? 1 : 0) +
  (e2eCode !== 0 && !e2e?.stats?.unexpected ? 1 : 0) +
  (engines?.stats?.unexpected ?? 0) +
  (browsersCode !== 0 && !engines?.stats?.unexpected ? 1 : 0) +
  (!otherEngines && inCi ? 1 : 0);
const skipped =
  (unit?.numPendingTests ?? 0) +
  (unit?.numTodoTests ?? 0) +
  (onPg?.numPendingTests ?? 0) +
  (onPg?.numTodoTests ?? 0) +
  (e2e?.stats?.skipped ?? 0) +
  (engines?.stats?.skipped ?? 0);
console.log(
  `\nunit+integration: ${unit?.numPassedTests ?? 0} passed; integration on PostgreSQL: ${onPg ? `${onPg.numPassedTests} passed` : 'not run'}; ` +
    `faults: ${faultsPassed} passed; end-to-end: ${e2e?.stats?.expected ?? 0} passed; ` +
    `Chromium, Firefox and WebKit (one scenario, three engines): ${engines ? `${engines.stats.expected} passed` : 'NOT RUN'}`,
);
if (!otherEngines) warnEnginesMissing(enginesMissing);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

/** PostgreSQL, Redis and nginx are installed when run as root with apt-get; what cannot be (not root, no apt-get)
 * skips the tests that need it locally, with the command that installs it, and fails them in CI. */
function installOrWarnMissingEngines() {
  const missing = installMissingEngines();
  if (inCi || missing.length === 0) return;
  console.warn('\nNot installed, so these tests will be skipped:');
  for (const m of missing) console.warn(`  ${m.name}: ${m.needs}`);
  console.warn(`Install with: ${installCommand(missing)}\n`);
}
