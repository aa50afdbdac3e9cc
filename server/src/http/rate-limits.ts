import type { Context } from 'koa';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from './errors.ts';

/**
 * Limits that guard against guessing, never a valid channel's own traffic (contract: SVC_RATE_LIMITS):
 * failed logins and failed endpoint lookups (404s), counted per source address.
 */
export function createRateLimits(enabled: boolean) {
  const failedLogins = new RateLimiterMemory({ points: 10, duration: 15 * 60 });
  const failedLookups = new RateLimiterMemory({ points: 60, duration: 60 });

  const guard = (limiter: RateLimiterMemory) => ({
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
  const budget = (points: number, duration: number) => {
    const limiter = new RateLimiterMemory({ points, duration });
    return {
      /** False when the key has no budget left. */
      async take(key: string): Promise<boolean> {
        if (!enabled) return true;
        return limiter.consume(key).then(
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
    failedLogins: guard(failedLogins),
    failedLookups: guard(failedLookups),
    visitorMessages: budget(30, 60),
    visitorUpdates: budget(60, 60),
    /** Typing changes have their own budget, so a fast typist never starves setCustomData and the like. */
    visitorTyping: budget(120, 60),
    newVisitors: budget(60, 10 * 60),
    /** Offline-form messages per source address. */
    offlineMessages: budget(10, 10 * 60),
    /** Requests of one bot provider to `{bot_url}`. */
    botProviders: budget(600, 60),
  };
}
export type RateLimits = ReturnType<typeof createRateLimits>;

export const sourceAddress = (ctx: Context) => ctx.ip || 'unknown';
