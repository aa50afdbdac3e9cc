// What the benchmark's throw-away Redis did over a run (INFO commandstats and stats, read with redis-cli): the
// commands the nodes sent per request and the bytes Redis read and wrote, to see what the cluster's broadcasts cost.
import { spawnSync } from 'node:child_process';

export interface RedisCommandStats {
  calls: number;
  usec: number;
}

/** Calls and time per command (`cmdstat_xadd` -> `xadd`), plus the bytes in and out as `net_input`/`net_output`;
 * empty when redis-cli is missing. */
export function redisCommandStats(port: number): Map<string, RedisCommandStats> {
  const info = spawnSync('redis-cli', ['-p', String(port), 'INFO', 'all'], { encoding: 'utf8' });
  const stats = new Map<string, RedisCommandStats>();
  if (info.status !== 0) return stats;
  for (const line of info.stdout.split('\n')) {
    const command = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line);
    if (command) stats.set(command[1]!, { calls: Number(command[2]), usec: Number(command[3]) });
    const bytes = /^total_(net_input|net_output)_bytes:(\d+)/.exec(line);
    if (bytes) stats.set(bytes[1]!, { calls: Number(bytes[2]), usec: 0 });
  }
  return stats;
}

/** The stream commands and bytes between two readings, per request: '' when Redis saw no stream command. */
export function redisCommandsPerRequest(before: Map<string, RedisCommandStats>, after: Map<string, RedisCommandStats>, requests: number) {
  const per = (name: string) => ((after.get(name)?.calls ?? 0) - (before.get(name)?.calls ?? 0)) / requests;
  const commands = ['xadd', 'xread'].filter((name) => per(name) > 0);
  if (commands.length === 0 || requests === 0) return '';
  return [
    ...commands.map((name) => `${per(name).toFixed(3)} ${name.toUpperCase()}`),
    `${per('net_input').toFixed(0)} bytes in, ${per('net_output').toFixed(0)} out`,
  ].join(', ');
}
