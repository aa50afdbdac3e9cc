/**
 * The fault suite: every scenario against one node on SQLite, then against two nodes on PostgreSQL
 * and Redis behind nginx (`--target=sqlite|cluster` for one of them). `pnpm test:faults` runs the full sizes,
 * `--reduced` the sizes `pnpm test` runs, `--only=<name>` one scenario, `--json=<file>` also writes each
 * scenario's result. Prints a table and exits 1 on any violation.
 */
import fs from 'node:fs';
import { EngineMissing, engineUnavailable } from '../../scripts/lib/engines.mjs';
import { missingEngines } from '../../scripts/lib/missing-engines.mjs';
import { formatTable, passed, type ScenarioResult } from './harness/report.ts';
import { setTarget, type TargetKind } from './harness/target.ts';
import { gracefulShutdown } from './scenarios/graceful-shutdown.ts';
import { integratorOutage } from './scenarios/integrator-outage.ts';
import { nodeFailover } from './scenarios/node-failover.ts';
import { reconnects } from './scenarios/reconnects.ts';
import { sigkillDuringIntake } from './scenarios/sigkill-intake.ts';

const reduced = process.argv.includes('--reduced');
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = option('only');
const jsonFile = option('json');

const scenarios: Record<string, { run: () => Promise<ScenarioResult>; limitMs: number; clusterOnly?: boolean }> = {
  outage: {
    run: () => integratorOutage({ messages: 1000, chats: 50, outageMs: 5500 }),
    limitMs: 60_000,
  },
  sigkill: {
    run: () => sigkillDuringIntake(reduced ? { runs: 3, messages: 600, perSecond: 300 } : { runs: 20, messages: 5000, perSecond: 500 }),
    limitMs: reduced ? 120_000 : 1_200_000,
  },
  reconnects: {
    run: () =>
      reconnects(
        reduced
          ? { clients: 20, agentMessages: 50, clientMessages: 10, agentEveryMs: 100, dropMs: [200, 1500], upMs: [300, 1500] }
          : { clients: 100, agentMessages: 50, clientMessages: 10, agentEveryMs: 400, dropMs: [1000, 10_000], upMs: [1000, 4000] },
      ),
    limitMs: reduced ? 60_000 : 180_000,
  },
  shutdown: {
    run: () =>
      gracefulShutdown(
        reduced
          ? { perSecond: 200, visitors: 100, loadMs: 2000, replies: 20 }
          : { perSecond: 200, visitors: 100, loadMs: 5000, replies: 50 },
      ),
    limitMs: 60_000,
  },
  failover: {
    run: () => nodeFailover(reduced ? { messages: 1000, perSecond: 200, chats: 50 } : { messages: 5000, perSecond: 400, chats: 100 }),
    limitMs: reduced ? 90_000 : 180_000,
    clusterOnly: true,
  },
};

/** A scenario that throws or outlives its limit is one failed line, not a hung suite. */
async function runBounded(name: string, run: () => Promise<ScenarioResult>, limitMs: number): Promise<ScenarioResult> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${limitMs} ms`)), limitMs)),
  );
  try {
    return await Promise.race([run(), limit]);
  } catch (err) {
    return {
      scenario: name,
      counts: '-',
      missing: 0,
      duplicates: 0,
      orderViolations: 0,
      failures: [String(err)],
      ms: Date.now() - started,
      notes: [],
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The cluster needs PostgreSQL, Redis and nginx: without them it is skipped locally and fails in CI. */
function clusterAvailable(): boolean {
  const missing = missingEngines();
  for (const m of missing) engineUnavailable(new EngineMissing(m.engine, m.name));
  return missing.length === 0;
}

const targetOption = option('target');
const targets: TargetKind[] = targetOption ? [targetOption as TargetKind] : ['sqlite', 'cluster'];
const results: ScenarioResult[] = [];
for (const target of targets) {
  if (target === 'cluster' && !clusterAvailable()) continue;
  setTarget(target);
  for (const [name, { run, limitMs, clusterOnly }] of Object.entries(scenarios)) {
    if ((only && only !== name) || (clusterOnly && target !== 'cluster')) continue;
    const result = await runBounded(name, run, limitMs);
    result.scenario = `${target === 'sqlite' ? 'SQLite, 1 node' : 'PostgreSQL, 2 nodes'}: ${result.scenario}`;
    results.push(result);
    process.stdout.write(`fault scenario ${name} (${target}): ${passed(result) ? 'pass' : 'FAIL'}\n`);
  }
}
process.stdout.write(`\nfault suite (${reduced ? 'reduced' : 'full'} sizes):\n${formatTable(results)}\n`);
if (jsonFile)
  fs.writeFileSync(
    jsonFile,
    JSON.stringify(
      results.map((r) => ({ ...r, passed: passed(r) })),
      null,
      2,
    ),
  );
process.exit(results.length > 0 && results.every(passed) ? 0 : 1);
