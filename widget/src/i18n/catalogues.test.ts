import { widgetLocales, widgetTextKeys } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { placeholderNames, pluralBranches } from './format-message.ts';
import { loadCatalogue } from './load-catalogue.ts';

const catalogues = await Promise.all(widgetLocales.map(async (locale) => [locale, await loadCatalogue(locale)] as const));
const en = catalogues.find(([locale]) => locale === 'en')![1];

describe('the widget catalogues', () => {
  it.each(catalogues)('%s has every key and no other, none empty', (_, catalogue) => {
    expect(Object.keys(catalogue).sort()).toEqual([...widgetTextKeys].sort());
    for (const key of widgetTextKeys) expect(catalogue[key].trim(), key).not.toBe('');
  });

  it.each(catalogues)('%s has the placeholders of English in every string', (_, catalogue) => {
    for (const key of widgetTextKeys) expect(placeholderNames(catalogue[key]), key).toEqual(placeholderNames(en[key]));
  });

  it.each(catalogues)('%s chooses plural forms only by categories its language has, and always has "other"', (locale, catalogue) => {
    const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories as string[];
    for (const key of widgetTextKeys) {
      const plural = /\{count, plural,(.*)\}$/s.exec(catalogue[key]);
      if (!plural) continue;
      const selectors = [...pluralBranches(plural[1]!).keys()];
      expect(selectors, key).toContain('other');
      for (const selector of selectors) if (!selector.startsWith('=')) expect(categories, `${key}: ${selector}`).toContain(selector);
      // Every form the language distinguishes is written out (`other` alone would be wrong for "2" in Polish).
      for (const category of categories) expect(selectors, `${key}: ${category}`).toContain(category);
    }
  });

  it('is written in the language it is for, not left in English', () => {
    for (const [locale, catalogue] of catalogues) {
      if (locale === 'en') continue;
      expect(catalogue['composer.placeholder'], locale).not.toBe(en['composer.placeholder']);
      expect(catalogue.greeting, locale).not.toBe(en.greeting);
    }
  });
});
