/** True for absolute http:// and https:// URLs, the only ones the widget ever loads or links. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** The URL when it is http(s), else undefined: use the result, never the raw value, in src and href. */
export const safeHttpUrl = (value: unknown): string | undefined => (isHttpUrl(value) ? value : undefined);
