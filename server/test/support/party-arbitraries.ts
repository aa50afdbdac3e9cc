import fc from 'fast-check';

/**
 * What a hostile or sloppy party sends (issue 19): strings from the whole UTF-16 range with NUL, other
 * controls, lone surrogates and bidi marks, very long strings, numbers past 2^53, odd nesting.
 * `SVC_PROPERTY_RUNS` sets the cases per endpoint (`pnpm test:faults` runs 10,000), `SVC_PROPERTY_SEED` the seed.
 */
export const propertyRuns = Number(process.env.SVC_PROPERTY_RUNS ?? 200);
/** Endpoints that hash a password with scrypt (slow by design, about 100 ms a case) take a tenth of the cases. */
export const scryptRuns = Math.max(40, Math.ceil(propertyRuns / 10));
export const propertySeed = Number(process.env.SVC_PROPERTY_SEED ?? 19);
/** Time for one endpoint's cases: logins hash with scrypt, slow by design. */
export const propertyTimeoutMs = Math.max(600_000, propertyRuns * 300);

const nastyChars = ['\u0000', '\u0001', '\u0008', '\u000B', '\u001F', '\u007F', '\t', '\n', '\r', '\u0085', '\u2028'];
const bidiAndOdd = ['\u200E', '\u200F', '\u202A', '\u202E', '\u2066', '\u2069', '\uFEFF', '\uFFFF', '\uFFFD', '\u{1F600}', 'é', 'ß'];
const loneSurrogates = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF'];

const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: anyUnit },
  { weight: 2, arbitrary: fc.constantFrom(...nastyChars, ...bidiAndOdd, ...loneSurrogates) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
);

/** A string a party might send: short, usually; sometimes tens of thousands of code units. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit, maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.string({ unit, minLength: 1, maxLength: 8 }), fc.integer({ min: 100, max: 9000 })).map(([s, n]) => s.repeat(n)),
  },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(2 ** 53, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e308, -1e308, 5e-324, -0, 0, 1, -1, 2 ** 31, 2 ** 32),
);

/** Any JSON value with hostile strings and numbers, a few levels deep. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(hostileString, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/**
 * Bodies near a valid example: each field kept, given a hostile value of its own kind, or replaced by any JSON
 * value, fields dropped and junk fields added. Near-valid bodies get past the schemas and reach the store.
 */
export function nearly(example: unknown): fc.Arbitrary<unknown> {
  if (typeof example === 'string') {
    return fc.oneof(
      { weight: 2, arbitrary: fc.constant(example) },
      { weight: 4, arbitrary: hostileString.map((s) => (example === '' ? s : `${s}${example}${s}`.slice(0, 70_000))) },
      { weight: 3, arbitrary: hostileString },
      { weight: 1, arbitrary: hostileJson },
    );
  }
  if (typeof example === 'number') return fc.oneof(fc.constant(example), hostileNumber, hostileString, hostileJson);
  if (example === null || typeof example !== 'object') return fc.oneof({ weight: 3, arbitrary: fc.constant(example) }, hostileJson);
  if (Array.isArray(example)) {
    const items = example.length ? fc.array(fc.oneof(...example.map(nearly)), { maxLength: 6 }) : fc.array(hostileJson, { maxLength: 3 });
    return fc.oneof({ weight: 6, arbitrary: items }, { weight: 1, arbitrary: hostileJson });
  }
  const fields = Object.entries(example).map(([key, value]) =>
    fc.option(nearly(value), { freq: 8, nil: undefined }).map((v) => [key, v] as const),
  );
  const extras = fc.option(fc.dictionary(hostileString, hostileJson, { minKeys: 1, maxKeys: 2 }), { freq: 4, nil: {} });
  const object = fc.tuple(fc.tuple(...fields), extras).map(([kept, extra]) => {
    const out: Record<string, unknown> = { ...extra };
    for (const [key, value] of kept) if (value !== undefined) out[key] = value;
    return out;
  });
  // Most bodies with several fields varied at once fail validation on one of them; one field varied and the
  // rest as in the example gets hostile text through validation to the store far more often.
  const keys = Object.keys(example);
  if (keys.length === 0) return fc.oneof({ weight: 8, arbitrary: object }, { weight: 1, arbitrary: hostileJson });
  const oneFieldVaried = fc
    .constantFrom(...keys)
    .chain((key) => nearly((example as Record<string, unknown>)[key]).map((value) => ({ ...example, [key]: value })));
  return fc.oneof({ weight: 5, arbitrary: object }, { weight: 6, arbitrary: oneFieldVaried }, { weight: 1, arbitrary: hostileJson });
}

/** A path segment where an id or key goes: the real one usually, else a hostile one (escaped, as a client would). */
export function nearlySegment(real: string | number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(String(real)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('0', '-1', '1.5', '1e3', '0x10', '9007199254740993', '99999999999999999999999', '%00', '%ZZ', '%ED%A0%80'),
    },
    {
      weight: 1,
      arbitrary: hostileString
        .filter((s) => s.length > 0 && s.length < 300)
        .map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/gu, '\uFFFD'))),
    },
  );
}
