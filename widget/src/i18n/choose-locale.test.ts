import { describe, expect, it } from 'vitest';
import { chooseLocale, directionOf } from './choose-locale.ts';

describe('the widget language', () => {
  it('auto: the first browser language the widget ships, by exact tag then primary subtag', () => {
    expect(chooseLocale('auto', ['de-CH', 'en'])).toBe('de');
    expect(chooseLocale('auto', ['pt-BR'])).toBe('pt');
    expect(chooseLocale('auto', ['zh-TW'])).toBe('zh');
    expect(chooseLocale('auto', ['zh-Hant-HK'])).toBe('zh');
    expect(chooseLocale('auto', ['JA'])).toBe('ja');
    expect(chooseLocale('auto', ['sv-SE', 'fi', 'fr-CA', 'de'])).toBe('fr');
  });

  it('auto with no language the widget ships, or none at all: English', () => {
    expect(chooseLocale('auto', ['sv-SE', 'ko'])).toBe('en');
    expect(chooseLocale('auto', [])).toBe('en');
  });

  it("the owner's fixed language wins over the browser", () => {
    expect(chooseLocale('ar', ['de-DE', 'en'])).toBe('ar');
  });

  it('Arabic and Hebrew run right to left', () => {
    expect([directionOf('ar'), directionOf('he'), directionOf('de'), directionOf('ja')]).toEqual(['rtl', 'rtl', 'ltr', 'ltr']);
  });
});
