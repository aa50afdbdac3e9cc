import type { WidgetLocale } from '@svc/protocol';
import type { Catalogue } from './catalogue.ts';

const catalogues = import.meta.glob<Catalogue>('./locales/*.ts', { import: 'default' });

/** Loads one language's catalogue: each is its own chunk, so the frame fetches only the one it shows. */
export const loadCatalogue = (locale: WidgetLocale): Promise<Catalogue> => catalogues[`./locales/${locale}.ts`]!();
