import type { Context } from 'koa';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClient } from '../cluster/redis-connection.ts';
import { rateLimited } from './errors.ts';

/** Every limiter key in Redis starts with this, then the limiter's name (`svc:rl:failed-logins:<address>`). */
export const RATE_LIMIT_PREFIX = 'svc:rl';

/**
 * Limits that guard against guessing, never a valid channel's own traffic (contract: SVC_RATE_LIMITS):
 * failed logins and failed endpoint lookups (404s), counted per source address.
 *
 * With Redis (several nodes) every node counts in the same place, so spreading attempts over the
 * nodes behind a load balancer buys nothing; without it each limiter lives in this process.
 */
export function createRateLimits(enabled: boolean, redis?: RedisClient) {
  const limiter = (name: string, points: number, duration: number): RateLimiterAbstract => {
    if (!redis) return new RateLimiterMemory({ points, duration });
    return new RateLimiterRedis({
      storeClient: redis,
      useRedisPackage: true,
      keyPrefix: `${RATE_LIMIT_PREFIX}:${name}`,
      points,
      duration,
      // While Redis is unreachable each node counts alone rather than answering 500 to everyone.
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points, duration }),
    });
  };

  const guard = (limiter: RateLimiterAbstract) => ({
    /** Throws 429 when the address has used up its failures. */
    async check(key: string): Promise<void> {
      if (!enabled) return;
      const res = await limiter.get(key);
      if (res && res.remainingPoints <= 0) throw rateLimited(Math.ceil(res.msBeforeNext / 1000));
    },
    async fail(key: string): Promise<void> {
      if (!enabled) return;
      await limiter.penalty(key, 1).catch((res: unknown) => {
        if (!(res instanceof RateLimiterRes)) throw res;
      });
    },
  });

  /** Page-driven widget traffic, spent per visitor (messages, profile updates) or per address (new visitors). */
  const budget = (name: string, points: number, duration: number) => {
    const spent = limiter(name, points, duration);
    return {
      /** False when the key has no budget left. */
      async take(key: string): Promise<boolean> {
        if (!enabled) return true;
        return spent.consume(key).then(
          () => true,
          (res: unknown) => {
            if (res instanceof RateLimiterRes) return false;
            throw res;
          },
        );
      },
    };
  };

  return {
    failedLogins: guard(limiter('failed-logins', 10, 15 * 60)),
    failedLookups: guard(limiter('failed-lookups', 60, 60)),
    visitorMessages: budget('visitor-messages', 30, 60),
    visitorUpdates: budget('visitor-updates', 60, 60),
    /** Typing changes have their own budget, so a fast typist never starves setCustomData and the like. */
    visitorTyping: budget('visitor-typing', 120, 60),
    newVisitors: budget('new-visitors', 60, 10 * 60),
    /** Offline-form messages per source address. */
    offlineMessages: budget('offline-messages', 10, 10 * 60),
    /** Requests of one bot provider to `{bot_url}`. */
    botProviders: budget('bot-providers', 600, 60),
  };
}
export type RateLimits = ReturnType<typeof createRateLimits>;

export const sourceAddress = (ctx: Context) => ctx.ip || 'unknown';
