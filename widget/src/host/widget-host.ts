import type { WidgetSettings } from '@svc/protocol';
import type { BridgeMessage, HostToFrame } from '../bridge/messages.ts';
import { storageKey, type Shell, type ShellScript } from '../bridge/shell.ts';
import { callSafely, type FireCallback } from '../page-api/callbacks.ts';
import type { VisitorNumberCallback } from '../page-api/types.ts';
import type { PageScript, WidgetHost } from '../bridge/widget-host-api.ts';
import { mountLauncher } from './launcher.ts';

/**
 * The loader's side of the widget: one settings request, the launcher, and the answers of svc_api. Only the
 * visitor or the page opening the chat, and getVisitorNumber, load the rest (the embed script, which loads the
 * frame); contact info, custom data and the user token the page sets are kept until then, so a page may set
 * them on every load without a single request. While a conversation goes on, the frame asks to be loaded at
 * once on the site's next page.
 */
export function startWidgetHost(doc: Document, widgetId: string, loaderUrl: string, fire: FireCallback): WidgetHost {
  // Not URL-encoded: widget ids are URL-safe, and a mistyped one only makes the settings request fail.
  const widgetApi = (path: string) => new URL(`../widget-api/${widgetId}/${path}`, loaderUrl);
  const waiting: VisitorNumberCallback[] = [];
  // One error for every way the number cannot come: no such widget, the service down, or no answer in time.
  const answer = (err?: Error) => {
    for (const callback of waiting.splice(0)) callSafely(callback, err ?? null, host.state.visitor_number);
  };
  const unavailable = () => answer(Error('The chat is not available'));
  let shell: Shell | undefined;
  const wanted = new Set<PageScript>();
  const loaded = new Set<PageScript>();
  const latest: Partial<HostToFrame> = {};

  // `ready` is set below, once the settings request has started.
  const host = {
    // Until the frame reports its state: what the page API answers from (unread and preload are the frame's).
    state: {
      view: 'closed',
      status: 'offline',
      contact: {},
      visitor_number: null,
      callback: { result: 'fail', reason: 'Callback unavaiable', detail: 'Loading' },
    },
    act(action) {
      host.push('act', action);
      if (action !== 'close') host.load('embed');
    },
    load(name) {
      wanted.add(name);
      if (!shell || loaded.has(name)) return;
      loaded.add(name);
      const script: ShellScript = doc.createElement('script');
      script.src = new URL(`${name}.js`, loaderUrl).href;
      script.svcShell = shell;
      doc.head.append(script);
    },
    push(type, data) {
      latest[type] = data;
      shell?.send?.({ type, data } as BridgeMessage<HostToFrame>);
    },
    offline(message) {
      // Sent as text/plain, which the service reads as JSON: a simple request, no CORS preflight. A failure
      // is swallowed (`catch(String)`, the shortest no-op the 2 KB budget allows): the result was given already.
      void fetch(widgetApi('offline-messages'), { method: 'POST', body: JSON.stringify(message) }).catch(String);
    },
    visitorNumber(callback) {
      waiting.push(callback);
      if (host.state.visitor_number !== null) return void setTimeout(answer);
      host.load('embed');
      setTimeout(() => waiting.includes(callback) && unavailable(), 20_000);
    },
  } as WidgetHost;

  host.ready = (async () => {
    let settings: WidgetSettings;
    try {
      const response = await fetch(widgetApi('settings'));
      if (!response.ok) throw response.status;
      settings = await response.json();
      host.state.status = settings.status;
      host.state.callback = settings.callback;
      host.verify = settings.verify_users;
    } catch (err) {
      // eslint-disable-next-line no-console -- the site owner's one hint at a wrong snippet
      console.error(`svc_api: no widget ${widgetId} (${err})`);
      return unavailable();
    }
    shell = {
      widgetId,
      root: mountLauncher(doc, settings.launcher, () => host.act(host.state.view === 'closed' ? 'chat' : 'close')),
      latest,
      rules: settings.rules,
      host,
      fire,
      report(state) {
        host.state = state;
        if (state.visitor_number !== null) answer();
      },
    };
    try {
      if (localStorage.getItem(storageKey(widgetId))) wanted.add('embed');
    } catch {
      // Storage blocked: the frame loads when the chat is asked for.
    }
    if (settings.rules.length) wanted.add('triggers');
    for (const name of wanted) host.load(name);
    fire('svc_onLoadCallback');
  })();
  return host;
}
