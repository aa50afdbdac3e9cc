import { engineUnavailable, startRedis, type RunningRedis } from '../../../scripts/lib/engines.mjs';

/** A throw-away Redis for a test file, or why there is none (`missing`: the file's tests are then skipped). */
export async function throwawayRedis(): Promise<{ redis?: RunningRedis; missing?: string }> {
  try {
    return { redis: await startRedis() };
  } catch (err) {
    return { missing: engineUnavailable(err) };
  }
}
