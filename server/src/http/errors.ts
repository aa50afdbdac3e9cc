import { errorStatus, type ErrorCode } from '@svc/protocol';

/** An error whose code and message may reach the client. Anything else leaves as a bare 500 `internal`. */
export class AppError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(
    readonly code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = errorStatus[code];
    this.headers = headers;
  }
}

export const invalidRequest = (message: string) => new AppError('invalid_request', message);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const invalidClient = (message = 'Missing or invalid token') =>
  new AppError('invalid_client', message, { 'WWW-Authenticate': 'Bearer' });
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('rate_limited', 'Too many requests; try again later', { 'Retry-After': String(Math.max(1, retryAfterSeconds)) });
