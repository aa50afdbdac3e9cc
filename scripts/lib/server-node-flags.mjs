// The flags the service's launchers give Node: `pnpm serve` (package.json repeats them), `pnpm start`, `pnpm cluster`
// and the benches (the test suites' throw-away servers go without). V8 sizes the young generation when the process
// starts, so the server cannot set this itself.
//
// A semi-space of up to 64 MB instead of 16: the Chat API intake makes short-lived garbage on every request, and
// with the larger young generation the collector took 3.5-4% of a PostgreSQL node's CPU under the pg1 bench
// instead of 11-12% (issue 16), for 166 MB resident after that load instead of 147 MB.
export const serverNodeFlags = ['--max-semi-space-size=64'];
