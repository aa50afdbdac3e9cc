import type { WidgetAppearance } from '@svc/protocol';
import { rtlLocales, widgetLocales, type WidgetLocale } from '@svc/protocol/widget-look';

const isWidgetLocale = (tag: string): tag is WidgetLocale => (widgetLocales as readonly string[]).includes(tag);

/**
 * The language of the widget: the owner's fixed choice, or for `auto` the visitor's first browser language
 * the widget ships (the exact tag first, then its primary subtag: `pt-BR` gives pt, `zh-TW` zh, `de-CH` de),
 * else English.
 */
export function chooseLocale(setting: WidgetAppearance['language'], browserLanguages: readonly string[]): WidgetLocale {
  if (setting !== 'auto') return setting;
  for (const tag of browserLanguages) {
    const lower = tag.toLowerCase();
    if (isWidgetLocale(lower)) return lower;
    const primary = lower.split('-')[0]!;
    if (isWidgetLocale(primary)) return primary;
  }
  return 'en';
}

export const directionOf = (locale: WidgetLocale): 'rtl' | 'ltr' => (rtlLocales.includes(locale) ? 'rtl' : 'ltr');
