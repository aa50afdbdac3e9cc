/**
 * `@svc/widget-loader`: the chat widget for apps that build their pages (React, Vue, Svelte or none), with the
 * types of its page API. See README.md.
 */
import type { SvcApi } from '@svc/protocol/page-api';
import { loadSvcWidgetInto, type LoadSvcWidgetOptions } from './load-widget.ts';

export type * from '@svc/protocol/page-globals';
export type { LoadSvcWidgetOptions } from './load-widget.ts';

/**
 * Loads the chat widget on this page once, as its embed snippet would, and resolves with `svc_api` once the
 * widget is ready (its launcher shown). Later calls answer the same promise. Rejects with an Error when the
 * loader script cannot load, or the widget is not ready in time (a wrong widget id, the service unreachable);
 * a later call then tries again.
 *
 * @example
 * import { loadSvcWidget } from '@svc/widget-loader';
 *
 * const svcApi = await loadSvcWidget({ widgetId: '0RhnQVEhoR_Q', baseUrl: 'https://chat.example.com' });
 * svcApi.setContactInfo({ name: 'Ann Lee', email: 'ann@example.com' });
 * svcApi.open();
 */
export function loadSvcWidget(options: LoadSvcWidgetOptions): Promise<SvcApi> {
  return loadSvcWidgetInto(typeof window === 'undefined' ? undefined : window, options);
}
