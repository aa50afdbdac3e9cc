import type { SvcApi } from '@svc/protocol/page-api';

/** loadSvcWidget's options. */
export interface LoadSvcWidgetOptions {
  /** The widget channel's id: `data-svc-widget` in its embed snippet, its `public_id` in the admin API. */
  widgetId: string;
  /** The service's public URL, where `/widget/loader.js` is served: `https://chat.example.com`. */
  baseUrl: string;
  /** How long to wait for the widget to be ready before giving up, in milliseconds. Default 20000. */
  timeoutMs?: number;
}

type PageWindow = Window & typeof globalThis;

interface Loading {
  widgetId: string;
  promise: Promise<SvcApi>;
}

const DEFAULT_TIMEOUT_MS = 20_000;
// One widget per page (the loader refuses a second one), so one load per window.
const loadings = new WeakMap<PageWindow, Loading>();

const failure = (message: string) => new Error(`loadSvcWidget: ${message}`);

/**
 * loadSvcWidget for a given window (the package's entry passes the page's). Kept apart so that tests can give
 * each case a fresh window.
 */
export function loadSvcWidgetInto(win: PageWindow | undefined, options: LoadSvcWidgetOptions): Promise<SvcApi> {
  if (!win) return Promise.reject(failure('runs in a browser; call it from an effect (useEffect, onMounted, onMount)'));
  const { widgetId, baseUrl, timeoutMs = DEFAULT_TIMEOUT_MS } = options ?? ({} as LoadSvcWidgetOptions);
  if (typeof widgetId !== 'string' || !widgetId.trim())
    return Promise.reject(new TypeError("loadSvcWidget: pass { widgetId: '<the data-svc-widget of your snippet>' }"));
  const loaderUrl = loaderUrlOf(baseUrl);
  if (!loaderUrl) return Promise.reject(new TypeError("loadSvcWidget: pass { baseUrl: 'https://<your chat server>' }"));

  const current = loadings.get(win);
  if (current)
    return current.widgetId === widgetId
      ? current.promise
      : Promise.reject(failure(`widget ${current.widgetId} is already on this page; a page has one widget`));
  if (win.svc_api)
    return Promise.reject(failure("the widget's snippet is already on this page: use window.svc_api, or remove the snippet"));

  const promise = insertLoader(win, widgetId, loaderUrl, timeoutMs);
  loadings.set(win, { widgetId, promise });
  // A failed load may be tried again (the network came back, the id was fixed).
  promise.catch(() => loadings.delete(win));
  return promise;
}

function loaderUrlOf(baseUrl: unknown): string | undefined {
  if (typeof baseUrl !== 'string') return undefined;
  try {
    const url = new URL('widget/loader.js', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Adds the embed snippet's script and waits for svc_onLoadCallback, the widget's "ready" (spec 6.3). The page
 * may have set its own svc_onLoadCallback, or set it later: it is kept and still called.
 */
function insertLoader(win: PageWindow, widgetId: string, loaderUrl: string, timeoutMs: number): Promise<SvcApi> {
  return new Promise<SvcApi>((resolve, reject) => {
    const doc = win.document;
    let pageCallback = win.svc_onLoadCallback;
    const script = doc.createElement('script');
    const timer = win.setTimeout(
      () => fail(`widget ${widgetId} was not ready after ${timeoutMs} ms (is the widget id right? the browser console says more)`),
      timeoutMs,
    );
    const settle = () => {
      win.clearTimeout(timer);
      Object.defineProperty(win, 'svc_onLoadCallback', { value: pageCallback, writable: true, configurable: true, enumerable: true });
    };
    const fail = (message: string) => {
      settle();
      script.remove();
      reject(failure(message));
    };
    const ready = () => {
      settle();
      resolve(win.svc_api!);
      pageCallback?.();
    };
    Object.defineProperty(win, 'svc_onLoadCallback', {
      configurable: true,
      enumerable: true,
      get: () => ready,
      set: (callback) => (pageCallback = callback),
    });
    script.async = true;
    script.src = loaderUrl;
    script.dataset.svcWidget = widgetId;
    script.addEventListener('error', () => fail(`could not load ${loaderUrl}`));
    doc.head.append(script);
  });
}
