import type { z } from 'zod';
import { invalidRequest } from './errors.ts';

/** Parses with the schema or throws a 400 `invalid_request` that names each bad field. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, what = 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw invalidRequest(`Invalid ${what}: ${problems.join('; ')}`);
}
