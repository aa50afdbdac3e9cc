// `pnpm test:faults [--reduced] [--only=<scenario>]`: builds the server, then runs the fault suite against
// the built server as a child process (server/faults/run.ts) and prints its table; exits 1 on any violation.
import { ensureInstalled, pnpm } from './lib/pnpm.mjs';

ensureInstalled();
pnpm(['--filter', '@svc/server', 'run', 'build']);
process.exit(pnpm(['exec', 'tsx', 'server/faults/run.ts', ...process.argv.slice(2)], { allowFailure: true }));
