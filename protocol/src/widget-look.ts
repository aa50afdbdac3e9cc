/**
 * The parts of the widget's appearance the chat frame needs at run time, without zod (the frame imports this
 * file alone, `@svc/protocol/widget-look`, to stay small): the bundled languages and the accent's contrast.
 */

/** The languages the widget ships a catalogue for. */
export const widgetLocales = ['en', 'de', 'fr', 'es', 'pt', 'it', 'nl', 'pl', 'ru', 'uk', 'tr', 'ar', 'he', 'ja', 'zh'] as const;
export type WidgetLocale = (typeof widgetLocales)[number];
export const rtlLocales: readonly WidgetLocale[] = ['ar', 'he'];

const isWidgetLocale = (tag: string): tag is WidgetLocale => (widgetLocales as readonly string[]).includes(tag);

/**
 * The language of the widget: the owner's fixed choice, or for `auto` the visitor's first browser language
 * the widget ships (the exact tag first, then its primary subtag: `pt-BR` gives pt, `zh-TW` zh, `de-CH` de),
 * else English. The chat frame passes `navigator.languages`; the server, for the launcher's label, the
 * settings request's Accept-Language, which the browser builds from the same list.
 */
export function chooseLocale(setting: 'auto' | WidgetLocale, browserLanguages: readonly string[]): WidgetLocale {
  if (setting !== 'auto') return setting;
  for (const tag of browserLanguages) {
    const lower = tag.toLowerCase();
    if (isWidgetLocale(lower)) return lower;
    const primary = lower.split('-')[0]!;
    if (isWidgetLocale(primary)) return primary;
  }
  return 'en';
}

export const DEFAULT_ACCENT_COLOR = '#2457c5';

/** WCAG 2.1 relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

export const contrastRatio = (a: string, b: string) => {
  const [la, lb] = [relativeLuminance(a), relativeLuminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
};

/** Black or white, whichever reads better on the accent; for any colour one of them reaches 4.5:1. */
export const textColorOn = (accent: string): '#000000' | '#ffffff' =>
  contrastRatio(accent, '#ffffff') >= contrastRatio(accent, '#000000') ? '#ffffff' : '#000000';
