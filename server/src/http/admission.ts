import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { errorStatus, type ErrorBody } from '@svc/protocol';

export interface AdmissionOptions {
  /** Requests of the guarded routes this node works on at once (`SVC_MAX_IN_FLIGHT`). */
  maxInFlight: number;
  /** Writes waiting in the store's group commit, from every path: a store that falls behind refuses new work too. */
  storeBacklog: () => number;
  /** The requests it guards: writes that queue on the store. */
  guards: (ctx: Context) => boolean;
  log: Logger;
}

/** Seconds a refused caller waits: a group commit drains a full backlog in milliseconds, so the next second is fair. */
const RETRY_AFTER_SECONDS = 1;
/** Refusals are expected under overload: one warning per window says how many, not one error line each. */
const WARN_EVERY_MS = 10_000;
/** Written once: under overload most requests get it, so it must cost far less than the work it declines. */
const OVERLOADED_BODY = JSON.stringify({
  error: { code: 'overloaded', message: 'The service is busy; nothing was stored, try again later' },
} satisfies ErrorBody);

/**
 * Admission control (issue 16): under overload a write route answers `503 overloaded` with `Retry-After` at once
 * instead of queueing without bound, so the requests it did take keep a short latency and memory stays flat.
 * A request is refused before it touches the store, or it runs to the end like any other (2xx once durable):
 * nothing a caller was told to send again has been stored.
 *
 * Registered early, before the body is read: on one event loop the requests that wait are those already taken in
 * (reading bodies, waiting for the commit), so that is what is counted; and a refusal is answered on the spot,
 * costing about a third of a stored message (same-run, chat-api bench), so refusing the excess leaves most of
 * the node to the messages it takes.
 */
export function admissionControl(options: AdmissionOptions): Middleware {
  let inFlight = 0;
  let refused = 0;
  let warnedAt = -Infinity;
  function refuse(ctx: Context, backlog: number) {
    refused++;
    const now = performance.now();
    if (now - warnedAt >= WARN_EVERY_MS) {
      options.log.warn({ refused, inFlight, backlog, maxInFlight: options.maxInFlight }, 'overloaded: refusing Chat API messages with 503');
      warnedAt = now;
      refused = 0;
    }
    // Answered here rather than thrown to the error middleware: a refusal is the common case under overload.
    ctx.status = errorStatus.overloaded;
    ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
    ctx.type = 'application/json';
    ctx.body = OVERLOADED_BODY;
  }
  return async (ctx, next) => {
    if (!options.guards(ctx)) return next();
    const backlog = options.storeBacklog();
    if (inFlight >= options.maxInFlight || backlog >= options.maxInFlight) return refuse(ctx, backlog);
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}
