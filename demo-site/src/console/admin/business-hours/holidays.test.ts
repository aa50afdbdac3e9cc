import { describe, expect, it } from 'vitest';
import { holidaysFromText, holidaysToText } from './holidays.ts';

describe('holidays text', () => {
  it('reads one date per line, ignoring blank lines, commas and spaces', () => {
    expect(holidaysFromText('2026-12-24\n\n 2026-12-25, 2026-12-31 ')).toEqual(['2026-12-24', '2026-12-25', '2026-12-31']);
  });

  it('reads nothing from an empty text', () => {
    expect(holidaysFromText('  \n')).toEqual([]);
  });

  it('writes one date per line, which reads back the same', () => {
    const dates = ['2026-12-24', '2026-12-25'];
    expect(holidaysFromText(holidaysToText(dates))).toEqual(dates);
  });
});
