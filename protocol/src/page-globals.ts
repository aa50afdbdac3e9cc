/**
 * The entry of the page authors' types (`/widget/svc-api.d.ts`, `@svc/widget-loader`): the page API and what
 * the widget adds to `window`. Only generators and the loader package import it; the widget types its own
 * window where it touches it (widget/src/loader.ts).
 */
import type { PageCallbacks, SvcApi } from './page-api.ts';

export type * from './page-api.ts';

declare global {
  /** The functions a page may define (spec 6.3), and svc_api once the loader has run (spec 4.4). */
  interface Window extends Partial<PageCallbacks> {
    svc_api?: SvcApi;
  }
}
