import { describe, expect, it } from 'vitest';
import { linkify } from './linkify.ts';
import { isHttpUrl, safeHttpUrl } from './safe-url.ts';

describe('links in text', () => {
  it('makes http(s) URLs links and leaves sentence punctuation outside', () => {
    expect(linkify('See https://example.com/a?b=1, or http://x.test.')).toEqual([
      { text: 'See ' },
      { text: 'https://example.com/a?b=1', href: 'https://example.com/a?b=1' },
      { text: ', or ' },
      { text: 'http://x.test', href: 'http://x.test' },
      { text: '.' },
    ]);
  });

  it('never links other schemes, and keeps markup as plain text', () => {
    const text = 'javascript:alert(1) <img src=x onerror=alert(1)> data:text/html,hi';
    expect(linkify(text)).toEqual([{ text }]);
  });
});

describe('safe URLs', () => {
  it('accepts only absolute http and https URLs', () => {
    expect(safeHttpUrl('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
    for (const wrong of ['javascript:alert(1)', 'data:image/png;base64,AA', '//cdn.example/a.png', '/a.png', 'ftp://x', 42, undefined])
      expect(isHttpUrl(wrong)).toBe(false);
  });
});
