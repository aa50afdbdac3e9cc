// Runs pnpm, through npx when it is not installed, so `npm start` and `npm test` work on a machine with
// only Node and npm.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const onPath = spawnSync('pnpm', ['--version'], { stdio: 'ignore', shell: process.platform === 'win32' }).status === 0;

/** Environment for installs: better-sqlite3 compiles against Node's local headers when they exist. */
export function buildEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  if (!env.npm_config_nodedir && fs.existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';
  return env;
}

/** Runs `pnpm <args>` with inherited output; exits the process with its code when it fails. */
export function pnpm(args, options = {}) {
  const [cmd, cmdArgs] = onPath ? ['pnpm', args] : ['npx', ['-y', 'pnpm@10', ...args]];
  const result = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: buildEnv(options.env), shell: process.platform === 'win32' });
  if (result.status !== 0 && !options.allowFailure) {
    console.error(`\n\`pnpm ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
  return result.status ?? 1;
}

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureInstalled() {
  const marker = 'node_modules/.modules.yaml';
  const stale =
    !fs.existsSync(marker) || (fs.existsSync('pnpm-lock.yaml') && fs.statSync('pnpm-lock.yaml').mtimeMs > fs.statSync(marker).mtimeMs);
  if (stale) pnpm(['install', ...(process.env.CI ? ['--frozen-lockfile'] : [])]);
}
