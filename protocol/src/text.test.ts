import { describe, expect, it } from 'vitest';
import { cleanPartyInput, cleanText, parsePartyJson, TooDeeplyNested } from './text.ts';

describe('the text rule', () => {
  it('removes C0 controls but tab, newline and carriage return', () => {
    expect(cleanText('a\u0000b\u0001c\u001Fd\te\nf\rg\u007F')).toBe('abcd\te\nf\rg\u007F');
  });

  it('turns lone surrogates into U+FFFD and keeps pairs', () => {
    expect(cleanText('\ud800a\udc00\u{1F600}')).toBe('\uFFFDa\uFFFD\u{1F600}');
  });

  it('cleans every string of a value, keys too, and keeps "__proto__" a plain field', () => {
    const cleaned = cleanPartyInput(JSON.parse('{"k\\u0000":[{"__proto__":"x\\u0000"}],"n":1}')) as Record<string, unknown>;
    expect(cleaned).toEqual({ k: [{ ['__proto__']: 'x' }], n: 1 });
    expect(Object.getPrototypeOf((cleaned.k as object[])[0])).toBe(Object.prototype);
  });

  it('refuses a value nested too deeply', () => {
    expect(() => parsePartyJson('['.repeat(100) + ']'.repeat(100))).toThrow(TooDeeplyNested);
  });
});
