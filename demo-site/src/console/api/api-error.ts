/** An answer of the service's API that was not a success: `{"error":{code,message}}` (contract: Errors). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The token is unknown or revoked: the agent must log in again. */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

/** Reads the error body of a failed response; an answer without one becomes a generic HTTP error. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'string' && typeof error.message === 'string') {
    return new ApiError(response.status, error.code, error.message);
  }
  return new ApiError(response.status, 'http_error', `The server answered HTTP ${response.status}`);
}

/** A message fit for the agent, whatever was thrown. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
