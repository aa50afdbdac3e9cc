import type { IncomingMessage, OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { errorStatus, type ErrorBody } from '@svc/protocol';
import { createConcurrencyLimit, type ConcurrencyLimit } from './concurrency-limit.ts';

export interface AdmissionOptions {
  /** The most requests of the guarded routes this node works on at once (`SVC_MAX_IN_FLIGHT`): the ceiling of
   * the adaptive limit, and how many writes the store may be behind. */
  maxInFlight: number;
  /** Whether the limit follows how late the event loop gets to requests (`SVC_ADMISSION=adaptive`) or stays at
   * `maxInFlight` (`fixed`). */
  adaptive: boolean;
  /** Writes waiting in the store's group commit, from every path: a store that falls behind refuses new work too. */
  storeBacklog: () => number;
  /** The requests it guards, by method and path (no query): writes that queue on the store. */
  guards: (method: string, path: string) => boolean;
  /** True while the server stops: a refusal then closes its connection, as every other answer does. */
  stopping: () => boolean;
  log: Logger;
}

export type RefusalReason = 'in_flight' | 'store_backlog';

/** Seconds a refused caller waits: a group commit drains a full backlog in milliseconds, so the next second is fair. */
const RETRY_AFTER_SECONDS = 1;
/** Refusals are expected under overload: one warning per window says how many, not one line each. */
const WARN_EVERY_MS = 10_000;
/** Written once: under overload most requests get it, so it must cost far less than the work it declines. */
const OVERLOADED_BODY = JSON.stringify({
  error: { code: 'overloaded', message: 'The service is busy; nothing was stored, try again later' },
} satisfies ErrorBody);
/** Marks a refusal that goes through the Koa app, whose answer's headers the later refusals reuse. */
const REFUSE_IN_APP = Symbol('refuseInApp');
/** Headers of an answer that belong to its connection or its moment, not to the refusal. */
const PER_ANSWER_HEADERS = new Set(['connection', 'keep-alive', 'date', 'transfer-encoding']);

/**
 * Admission control (issue 16): under overload a write route answers `503 overloaded` with `Retry-After` at once
 * instead of queueing without bound, so the requests it did take keep a short latency and memory stays flat.
 * A request is refused before it touches the store, or it runs to the end like any other (2xx once durable):
 * nothing a caller was told to send again has been stored.
 *
 * It sits in front of the Koa app, at the HTTP server's request event: under overload most requests are
 * refused, and a refusal has to cost far less than an accepted message, or refusing alone fills the event loop
 * and every answer waits. So a refusal reads no body, builds no Koa context, writes no log line (a counter and
 * one warning per 10 s), and sends bytes prepared once. The first refusal does go through the app, so it carries
 * the security headers every API answer carries (security-headers.ts); the later ones send the same headers.
 *
 * How many requests it admits at once is a limit that follows how late the event loop gets to requests
 * (concurrency-limit.ts), up to `maxInFlight`: when requests start to wait for a loop that falls behind the limit comes down, so the node takes
 * what it can answer quickly and refuses the rest rather than answering everything late.
 */
export function createAdmission(options: AdmissionOptions) {
  const limit: ConcurrencyLimit = options.adaptive
    ? createConcurrencyLimit({ max: options.maxInFlight, inFlight: () => inFlight })
    : { current: () => options.maxInFlight, limited: () => undefined, refusalTook: () => undefined };
  let inFlight = 0;
  const refusedTotal: Record<RefusalReason, number> = { in_flight: 0, store_backlog: 0 };
  let refusedSinceWarning = 0;
  let warnedAt = -Infinity;
  let refusalHeaders: OutgoingHttpHeaders | undefined;

  function countRefusal(reason: RefusalReason, backlog: number) {
    refusedTotal[reason]++;
    refusedSinceWarning++;
    const now = performance.now();
    if (now - warnedAt >= WARN_EVERY_MS) {
      options.log.warn(
        { refused: refusedSinceWarning, inFlight, limit: limit.current(), backlog, maxInFlight: options.maxInFlight },
        'overloaded: refusing Chat API messages with 503',
      );
      warnedAt = now;
      refusedSinceWarning = 0;
    }
  }

  function admitted(res: ServerResponse) {
    inFlight++;
    res.once('close', () => inFlight--);
  }

  return {
    /** Wraps the app's request listener: refuses or counts the guarded requests, passes everything else on. */
    guard(app: RequestListener): RequestListener {
      return (req: IncomingMessage, res: ServerResponse) => {
        const url = req.url ?? '/';
        const query = url.indexOf('?');
        if (!options.guards(req.method ?? 'GET', query < 0 ? url : url.slice(0, query))) return app(req, res);
        const backlog = options.storeBacklog();
        const reason: RefusalReason | undefined =
          inFlight >= limit.current() ? 'in_flight' : backlog >= options.maxInFlight ? 'store_backlog' : undefined;
        if (reason === undefined) {
          admitted(res);
          return app(req, res);
        }
        if (reason === 'in_flight') limit.limited();
        countRefusal(reason, backlog);
        if (!refusalHeaders) {
          (req as { [REFUSE_IN_APP]?: boolean })[REFUSE_IN_APP] = true;
          return app(req, res);
        }
        if (options.stopping()) res.setHeader('Connection', 'close');
        const started = performance.now();
        res.writeHead(errorStatus.overloaded, refusalHeaders).end(OVERLOADED_BODY);
        limit.refusalTook(performance.now() - started);
      };
    },

    /** Answers in the app the refusals `guard` sends there, after the security headers (see above). */
    refuseInApp: (async (ctx: Context, next) => {
      if (!(ctx.req as { [REFUSE_IN_APP]?: boolean })[REFUSE_IN_APP]) return next();
      ctx.status = errorStatus.overloaded;
      ctx.set('Retry-After', String(RETRY_AFTER_SECONDS));
      ctx.type = 'application/json';
      ctx.body = OVERLOADED_BODY;
      ctx.res.once('finish', () => {
        refusalHeaders ??= Object.fromEntries(Object.entries(ctx.res.getHeaders()).filter(([name]) => !PER_ANSWER_HEADERS.has(name)));
      });
    }) satisfies Middleware,

    /** Guarded requests refused since start, by reason (`svc_http_refused_total`). */
    refused: (): Readonly<Record<RefusalReason, number>> => refusedTotal,
    /** The guarded requests in progress, and how many it admits at once now. */
    inFlight: () => inFlight,
    limit: () => limit.current(),
  };
}
export type Admission = ReturnType<typeof createAdmission>;
