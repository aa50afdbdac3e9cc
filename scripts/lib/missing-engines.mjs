// Which of the Debian packages behind the multi-node tests and `pnpm cluster` are not installed,
// and the one command that installs them.
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
