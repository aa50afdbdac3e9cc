import type { CallbackName, PageCallbacks } from './types.ts';

export type FireCallback = <K extends CallbackName>(name: K, ...args: Parameters<PageCallbacks[K]>) => void;

/**
 * Runs page code (a svc_ callback, a getVisitorNumber callback) so that it never breaks the widget: what it
 * throws is rethrown on a fresh task, where it still reaches the console and window.onerror.
 */
export function callSafely<A extends unknown[]>(fn: ((...args: A) => unknown) | undefined, ...args: A): void {
  try {
    fn?.(...args);
  } catch (err) {
    setTimeout(() => {
      throw err;
    });
  }
}

/**
 * Calls the page's svc_ function (spec 6.3) when it defines one, looked up at call time so a page may define
 * it after the snippet.
 *
 * @example
 * const fire = createCallbackDispatcher(window);
 * fire('svc_onChangeState', 'chat');
 */
export const createCallbackDispatcher =
  (page: Partial<PageCallbacks>): FireCallback =>
  (name, ...args) =>
    callSafely(page[name] as ((...a: typeof args) => unknown) | undefined, ...args);

/** Page events (svc_api.on) are DOM events on window named `svc:<event>`, their data in `detail`: the browser
 * reports a listener's exception and goes on with the others. */
export const pageEventType = (event: string) => `svc:${event}`;
