import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { AppError } from './errors.ts';
import { redactPath } from './request-log.ts';

/** Registered first: every error leaves as `{"error":{"code","message"}}`, never a stack trace. */
export function errorMiddleware(log: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new AppError('not_found', 'No such endpoint');
    } catch (err) {
      const appError = toAppError(err);
      if (appError.status >= 500) log.error({ err, method: ctx.method, path: redactPath(ctx.path) }, 'request failed');
      ctx.status = appError.status;
      ctx.set(appError.headers);
      ctx.body = { error: { code: appError.code, message: appError.message } };
    }
  };
}

/** Codes of a client that closed its connection before the response was written out. */
const CLIENT_GONE = new Set(['ERR_STREAM_PREMATURE_CLOSE', 'ERR_STREAM_DESTROYED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE']);

/**
 * For Koa's `error` event: what fails once the response has started, such as a stream body (an upload being
 * downloaded) when the visitor leaves the page. Koa's own handler printed each one's stack to stderr.
 */
export function responseErrorLogger(log: Logger) {
  return (err: NodeJS.ErrnoException & { status?: number; expose?: boolean }, ctx?: Context) => {
    // As Koa's own handler: what the client was told is no error of the service.
    if (err.status === 404 || err.expose) return;
    const where = ctx && { method: ctx.method, path: redactPath(ctx.path) };
    if (err.code && CLIENT_GONE.has(err.code)) log.debug({ code: err.code, ...where }, 'client left before the response was written');
    else log.error({ err, ...where }, 'response failed');
  };
}

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const status = typeof err === 'object' && err !== null && 'status' in err ? Number((err as { status: unknown }).status) : 500;
  // Errors thrown by Koa and @koa/router carry a status; only their kind is told to the client.
  if (status === 405 || status === 501) return new AppError('method_not_allowed', 'This method is not supported on this endpoint');
  if (status === 404) return new AppError('not_found', 'No such endpoint');
  if (status === 413) return new AppError('payload_too_large', 'The request body is too large');
  if (status === 400) return new AppError('invalid_request', 'Invalid request');
  return new AppError('internal', 'Request processing error');
}
