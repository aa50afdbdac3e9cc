/**
 * The URL, normalised, when it is http(s); otherwise undefined. Every URL that came from a customer or an
 * integrator goes through here before it is loaded or linked, so `javascript:`, `data:` and friends never are.
 *
 * @example
 * safeHttpUrl('https://example.com/a b'); // 'https://example.com/a%20b'
 * safeHttpUrl('javascript:alert(1)');     // undefined
 */
export function safeHttpUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
