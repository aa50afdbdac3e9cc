/** What validBody needs of a schema: the shape of zod's `safeParse`, so the console needs no zod import of its own. */
export interface BodySchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/**
 * The form's body checked with the API's own schema (from @svc/protocol) before it is sent; a refusal throws an
 * Error worded as the API words it (`Invalid body: webhook_url: must be an http:// or https:// URL`), so the
 * admin reads one message either way. What only the server knows (a taken e-mail, a URL the outbound policy
 * refuses) still comes from the API.
 */
export function validBody<T>(schema: BodySchema<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new Error(`Invalid body: ${problems.join('; ')}`);
}
