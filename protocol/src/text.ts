/** Length in Unicode code points, the unit every text limit of the service counts in. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Cuts text to at most `max` code points without ever splitting a surrogate pair. */
export function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  let count = 0;
  for (const ch of text) {
    if (count === max) break;
    out += ch;
    count++;
  }
  return out;
}

// The C0 control characters (U+0000 to U+001F) but tab, newline and carriage return. PostgreSQL's text type
// refuses NUL, and none of them means anything in a chat: they are removed, never refused (docs/errors.md "Text").
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const C0_CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;
// With the u flag a surrogate pair is one code point outside this range: only lone halves match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu;

/** The one rule for text a party sends us: C0 controls but tab, newline and CR removed, lone surrogates U+FFFD. */
export function cleanText(text: string): string {
  return text.replace(C0_CONTROLS, '').replace(LONE_SURROGATE, '\uFFFD');
}

/** Deeper than this, a value from a party is refused: no request of the service nests more than a few levels. */
export const PARTY_INPUT_MAX_DEPTH = 64;

export class TooDeeplyNested extends Error {
  constructor() {
    super(`nested more than ${PARTY_INPUT_MAX_DEPTH} levels deep`);
  }
}

/**
 * `cleanText` applied to every string of a value a party sent (object keys too), so no field can be missed.
 * Functions (socket acknowledgements) and other non-JSON values pass unchanged.
 * @throws TooDeeplyNested
 */
export function cleanPartyInput(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= PARTY_INPUT_MAX_DEPTH) throw new TooDeeplyNested();
  if (Array.isArray(value)) return value.map((item) => cleanPartyInput(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty: a "__proto__" key from JSON stays a plain field instead of setting the prototype.
    Object.defineProperty(out, cleanText(key), {
      value: cleanPartyInput(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** JSON from a party (a request body, a webhook's or bot's answer) with `cleanPartyInput` applied.
 * @throws SyntaxError, TooDeeplyNested */
export function parsePartyJson(text: string): unknown {
  return cleanPartyInput(JSON.parse(text));
}
