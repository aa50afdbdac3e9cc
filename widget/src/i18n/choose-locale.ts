import { rtlLocales, type WidgetLocale } from '@svc/protocol/widget-look';

// Shared with the server, which picks the launcher's label by the same rule (protocol/src/widget-look.ts).
export { chooseLocale } from '@svc/protocol/widget-look';

export const directionOf = (locale: WidgetLocale): 'rtl' | 'ltr' => (rtlLocales.includes(locale) ? 'rtl' : 'ltr');
