import { resolveAppearance } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import de from './locales/de.ts';
import en from './locales/en.ts';
import { createTexts, ownerText } from './texts.ts';

describe('the texts of the frame', () => {
  it('an override for the language wins over the owner title and greeting, which win over the catalogue', () => {
    const appearance = resolveAppearance({
      title: 'Acme Support',
      greeting: 'Welcome to Acme!',
      texts: { de: { greeting: 'Willkommen bei Acme!' } },
    });
    const german = createTexts('de', de, appearance);
    expect(german.t('greeting')).toBe('Willkommen bei Acme!');
    expect(german.t('header.title')).toBe('Acme Support');
    expect(german.t('composer.send')).toBe('Nachricht senden');
    const english = createTexts('en', en, appearance);
    expect(english.t('greeting')).toBe('Welcome to Acme!');
    expect(createTexts('en', en, resolveAppearance({})).t('greeting')).toBe(en.greeting);
  });

  it("an owner's override may use the key's placeholders", () => {
    const texts = createTexts('de', de, resolveAppearance({ texts: { de: { 'typing.someone': '{name} tippt gerade…' } } }));
    expect(texts.t('typing.someone', { name: 'Lea' })).toBe('Lea tippt gerade…');
  });

  it('the launcher shows text only when the owner gives one, in the language when given for it', () => {
    expect(ownerText(resolveAppearance({}), 'de', 'launcher.label')).toBeNull();
    const both = resolveAppearance({ launcher_label: 'Chat with us', texts: { de: { 'launcher.label': 'Fragen Sie uns' } } });
    expect(ownerText(both, 'de', 'launcher.label')).toBe('Fragen Sie uns');
    expect(ownerText(both, 'fr', 'launcher.label')).toBe('Chat with us');
  });

  it('times and dates in the language', () => {
    const iso = '2030-01-01T14:05:00';
    expect(createTexts('de', de, resolveAppearance({})).time(iso)).toBe('14:05');
    expect(createTexts('en', en, resolveAppearance({})).time(iso)).toBe('02:05 PM');
    expect(createTexts('en', en, resolveAppearance({})).time('not a date')).toBe('');
  });
});
