// `pnpm test:faults [--reduced] [--only=<scenario>]`: builds the server, then runs the fault suite against
// the built server as a child process (server/faults/run.ts) and prints its table; exits 1 on any violation.
// The full run (no --reduced, --only or --target) then runs the property tests of issue 19 at 10,000 cases per endpoint
// and socket event, on SQLite and on PostgreSQL (SVC_PROPERTY_RUNS overrides the count).
import { ensureInstalled, pnpm } from './lib/pnpm.mjs';

ensureInstalled();
pnpm(['--filter', '@svc/server', 'run', 'build']);
const args = process.argv.slice(2);
let code = pnpm(['exec', 'tsx', 'server/faults/run.ts', ...args], { allowFailure: true });
if (!args.some((a) => a === '--reduced' || a.startsWith('--only') || a.startsWith('--target'))) {
  const properties = ['exec', 'vitest', 'run', 'server/test/http-properties.test.ts', 'server/test/socket-properties.test.ts'];
  const runs = process.env.SVC_PROPERTY_RUNS ?? '10000';
  for (const store of ['sqlite', 'postgres']) {
    const env = { SVC_PROPERTY_RUNS: runs, SVC_PROPERTY_REPORT: '1', ...(store === 'postgres' ? { SVC_TEST_DB: 'postgres' } : {}) };
    code = pnpm(properties, { allowFailure: true, env }) || code;
  }
}
process.exit(code);
