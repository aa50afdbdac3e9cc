import crypto from 'node:crypto';

/** Random bytes drawn 4 KiB at a time, as `crypto.randomUUID` does: one `randomBytes` call costs ~4 us of CPU,
 * more than the rest of building an offline message's webhook (issue 16). */
const pool = Buffer.allocUnsafe(4096);
let used = pool.length;

/**
 * A random, URL-safe id with `bytes` bytes of entropy, as `randomToken` makes, for ids drawn on every request
 * (event ids). Drawn from a pool of the same CSPRNG, so it is as unpredictable; a secret that is kept (a token,
 * a signing secret) still takes `randomToken`, whose bytes no other value ever shared memory with.
 *
 * @example randomId(16) // 'pFQk8iLDrAVhXVagu0vK6w'
 */
export function randomId(bytes: number): string {
  if (bytes > pool.length) throw new RangeError(`randomId: at most ${pool.length} bytes`);
  if (used + bytes > pool.length) {
    crypto.randomFillSync(pool);
    used = 0;
  }
  const id = pool.toString('base64url', used, used + bytes);
  used += bytes;
  return id;
}

/** A new outbound event's id (`evt_` and 16 random bytes), by which a receiver recognises a retry. */
export const newEventId = (): string => `evt_${randomId(16)}`;
