import { formatTable, passed, type ScenarioResult } from './harness/report.ts';
import { integratorOutage } from './scenarios/integrator-outage.ts';
import { reconnects } from './scenarios/reconnects.ts';
import { sigkillDuringIntake } from './scenarios/sigkill-intake.ts';

const reduced = process.argv.includes('--reduced');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);

const scenarios: Record<string, () => Promise<ScenarioResult>> = {
  outage: () => integratorOutage(reduced ? { messages: 1000, chats: 50, outageMs: 5500 } : { messages: 1000, chats: 50, outageMs: 5500 }),
  sigkill: () => sigkillDuringIntake(reduced ? { runs: 3, messages: 600, perSecond: 300 } : { runs: 20, messages: 5000, perSecond: 500 }),
  reconnects: () =>
    reconnects(
      reduced
        ? { clients: 20, agentMessages: 50, clientMessages: 10, agentEveryMs: 100, dropMs: [200, 1500], upMs: [300, 1500] }
        : { clients: 100, agentMessages: 50, clientMessages: 10, agentEveryMs: 400, dropMs: [1000, 10_000], upMs: [1000, 4000] },
    ),
};

const results: ScenarioResult[] = [];
for (const [name, run] of Object.entries(scenarios)) {
  if (only && only !== name) continue;
  try {
    results.push(await run());
  } catch (err) {
    results.push({ scenario: name, counts: '-', missing: 0, duplicates: 0, orderViolations: 0, failures: [String(err)], ms: 0, notes: [] });
  }
  process.stdout.write(`${name}: ${passed(results.at(-1)!) ? 'pass' : 'FAIL'}\n`);
}
process.stdout.write(`\n${formatTable(results)}\n`);
process.exit(results.every(passed) ? 0 : 1);
