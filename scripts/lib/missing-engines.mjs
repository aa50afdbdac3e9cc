// Which of the Debian packages behind the multi-node tests and `pnpm cluster` are not installed,
// and the one command that installs them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { INSTALL_HINT, nginxPath, postgresBinDir, redisServerPath } from './engines.mjs';

const engines = [
  { engine: 'postgres', name: 'PostgreSQL', find: postgresBinDir, needs: 'the store tests on PostgreSQL and the multi-node tests' },
  { engine: 'redis', name: 'Redis', find: redisServerPath, needs: 'the socket.io Redis adapter and shared rate limit tests' },
  { engine: 'nginx', name: 'nginx', find: nginxPath, needs: 'the tests of several nodes behind a load balancer' },
];

/** The engines not found on this machine: `{ engine, name, needs, hint }` each. */
export function missingEngines() {
  return engines.filter((e) => !e.find()).map(({ engine, name, needs }) => ({ engine, name, needs, hint: INSTALL_HINT[engine] }));
}

/** One apt-get line for all of them: INSTALL_HINT's commands differ only in their last word, the package. */
export function installCommand(missing) {
  if (missing.length === 1) return missing[0].hint;
  const prefix = missing[0].hint.split(' ').slice(0, -1).join(' ');
  return `${prefix} ${missing.map((m) => m.hint.split(' ').at(-1)).join(' ')}`;
}

/**
 * Installs the missing engines with apt-get when run as root (as Chromium is, scripts/lib/browser.mjs) and
 * answers what is still missing. Debian's maintainer scripts would start PostgreSQL, Redis and nginx (on port 80)
 * as services: a policy-rc.d answering 101 ("action forbidden") keeps them stopped, ours only if there is none.
 * Each test starts its own throw-away server.
 */
export function installMissingEngines() {
  const missing = missingEngines();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (missing.length === 0 || !isRoot || !hasApt) return missing;
  const packages = missing.map((m) => INSTALL_HINT[m.engine].split(' ').at(-1)).join(' ');
  console.log(`Installing what the multi-node and PostgreSQL tests need with apt-get: ${packages}`);
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !fs.existsSync(policy);
  if (ownPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    spawnSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`], {
      stdio: 'inherit',
    });
  } finally {
    if (ownPolicy) fs.rmSync(policy, { force: true });
  }
  return missingEngines();
}
