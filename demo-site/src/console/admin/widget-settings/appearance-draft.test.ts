import { resolveAppearance, widgetLocales } from '@svc/protocol';
import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, fieldOfError, keysLeft, previewOf } from './appearance-draft.ts';

const view = (stored: Parameters<typeof resolveAppearance>[0]) => ({ ...resolveAppearance(stored), languages: widgetLocales });

describe('the appearance form', () => {
  it('sends empty texts as null and empty offsets as left out (back to the default)', () => {
    const draft = { ...draftOf(view({})), title: '  ', offset_x: '', offset_y: '48' };
    expect(bodyOf(draft)).toMatchObject({ title: null, greeting: null, launcher_label: null, offset_x: undefined, offset_y: 48 });
  });

  it('keeps overrides of keys it does not edit, and drops emptied ones', () => {
    const draft = draftOf(view({ texts: { de: { greeting: 'Hallo', 'composer.placeholder': 'Nachricht…' } } }));
    draft.texts.de!.greeting = '';
    draft.texts.fr = { 'header.title': 'Aide' };
    expect(bodyOf(draft).texts).toEqual({ de: { 'composer.placeholder': 'Nachricht…' }, fr: { 'header.title': 'Aide' } });
  });

  it('offers every catalogue key not worded yet, the launcher label and the named three left out', () => {
    const left = keysLeft({ 'composer.placeholder': 'x' });
    expect(left).toContain('offline.intro');
    expect(left).not.toContain('composer.placeholder');
    expect(left).not.toContain('greeting');
    expect(left).not.toContain('launcher.label');
  });

  it('previews a language with its own words, else the general ones, else the channel name', () => {
    const draft = draftOf(view({ title: 'Help', greeting: 'Hi', texts: { de: { greeting: 'Hallo' } } }));
    expect(previewOf(draft, 'Shop', 'de')).toMatchObject({ title: 'Help', greeting: 'Hallo' });
    expect(previewOf(draft, 'Shop', 'fr')).toMatchObject({ title: 'Help', greeting: 'Hi' });
    expect(previewOf({ ...draft, title: '' }, 'Shop', 'fr').title).toBe('Shop');
  });

  it('previews a colour that is not #rrggbb with the default accent, never the typed text', () => {
    const draft = { ...draftOf(view({})), accent_color: 'red;} body{display:none' };
    expect(previewOf(draft, 'Shop', null)).toMatchObject({ accent: '#2457c5', accentText: '#ffffff' });
    expect(previewOf({ ...draft, accent_color: '#FFD400' }, 'Shop', null)).toMatchObject({ accent: '#ffd400', accentText: '#000000' });
  });

  it('finds the field an API refusal names', () => {
    expect(fieldOfError('Invalid body: accent_color: a colour written #rrggbb')).toBe('accent_color');
    expect(fieldOfError('Invalid body: texts.de: Invalid key in record')).toBe('texts');
    expect(fieldOfError('The server cannot be reached.')).toBeNull();
  });
});
