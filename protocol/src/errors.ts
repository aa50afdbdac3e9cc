import { z } from 'zod';

/** Error codes of the service's own APIs, with the HTTP status each one travels with (contract: Errors). */
export const errorStatus = {
  invalid_request: 400,
  invalid_client: 401,
  unauthorized_client: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  /** The node works on as many requests as it takes; nothing of this one was stored (issue 16). */
  overloaded: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});

/** `{"error":{"code","message"}}`: the one error shape of every API of the service (spec 7). */
export type ErrorBody = z.infer<typeof errorBodySchema>;
