/**
 * The snippet's script (`<script async src=".../widget/loader.js" data-svc-widget="...">`): defines svc_api at
 * once, shows the launcher after one small settings request, and loads the chat frame only when the chat is
 * asked for. The only file that touches window when it loads.
 */
import { createCallbackDispatcher } from './page-api/callbacks.ts';
import { createSvcApi } from './page-api/svc-api.ts';
import type { PageCallbacks, SvcApi } from './page-api/types.ts';
import { startWidgetHost } from './host/widget-host.ts';

const page = window as Window & Partial<PageCallbacks> & { svc_api?: SvcApi };
const script = (document.currentScript ?? document.querySelector('script[data-svc-widget]')) as HTMLScriptElement | null;
const widgetId = script?.dataset.svcWidget;

// A snippet pasted twice must not make two widgets.
if (widgetId && !page.svc_api)
  page.svc_api = createSvcApi(startWidgetHost(document, widgetId, script!.src, createCallbackDispatcher(page)));
