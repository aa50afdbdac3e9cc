import type { OverridableTextKey, WidgetAppearance, WidgetLocale, WidgetTextKey } from '@svc/protocol';
import type { Catalogue } from './catalogue.ts';
import { directionOf } from './choose-locale.ts';
import { formatMessage, type MessageParams } from './format-message.ts';

/** The words of the frame in one language, with the owner's overrides, and dates and numbers in its way. */
export interface Texts {
  locale: WidgetLocale;
  dir: 'ltr' | 'rtl';
  /** The string of a key, its placeholders filled as text. */
  t(key: WidgetTextKey, params?: MessageParams): string;
  /** "14:05" or "2:05 PM"; '' for an unreadable date. */
  time(iso: string): string;
  /** Date and time in full, for a tooltip. */
  dateTime(iso: string): string;
}

/** The owner's fields that replace a catalogue string in every language. */
const OWNER_FIELDS: Partial<Record<OverridableTextKey, 'title' | 'greeting' | 'launcher_label'>> = {
  'header.title': 'title',
  greeting: 'greeting',
  'launcher.label': 'launcher_label',
};

/**
 * The owner's words for a key, if any: the override for this language (`appearance.texts`), else the owner's
 * title, greeting or launcher label; else null, and the catalogue's string shows. The launcher's text
 * (`launcher.label`) has no catalogue string: without the owner's, the launcher shows its icon alone.
 */
export function ownerText(
  appearance: Pick<WidgetAppearance, 'texts' | 'title' | 'greeting' | 'launcher_label'>,
  locale: WidgetLocale,
  key: OverridableTextKey,
) {
  const field = OWNER_FIELDS[key];
  return appearance.texts[locale]?.[key] ?? (field ? appearance[field] : null) ?? null;
}

const readable = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

export function createTexts(
  locale: WidgetLocale,
  catalogue: Catalogue,
  appearance: Pick<WidgetAppearance, 'texts' | 'title' | 'greeting' | 'launcher_label'>,
): Texts {
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const full = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  return {
    locale,
    dir: directionOf(locale),
    t: (key, params = {}) => formatMessage(ownerText(appearance, locale, key) ?? catalogue[key], params, locale),
    time: (iso) => {
      const date = readable(iso);
      return date ? time.format(date) : '';
    },
    dateTime: (iso) => {
      const date = readable(iso);
      return date ? full.format(date) : '';
    },
  };
}
