import type { WidgetLocale } from '@svc/protocol';
import type { Catalogue } from './catalogue.ts';

/** Loads one language's catalogue: each is its own chunk, so the frame fetches only the one it shows. */
export const loadCatalogue = (locale: WidgetLocale): Promise<Catalogue> =>
  import(`./locales/${locale}.ts`).then((module: { default: Catalogue }) => module.default);
