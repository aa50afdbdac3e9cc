import type { FrameInit } from '../bridge/messages.ts';

type Page = FrameInit['page'];

/** A single-page app often sets the new title just after it changes the URL: one page view, with that title. */
const SETTLE_MS = 300;

/**
 * Issue 24: single-page apps move with the History API, not page loads. Reports a page view (to the frame, which
 * sends it on as a page load's) after `pushState`, `replaceState`, `popstate` and `hashchange`, once the page
 * has settled, and only when its address or title changed. The page's own history functions are wrapped, not
 * replaced: they run first, with the page's arguments, and answer as they did.
 */
export function watchPageViews(win: Window, doc: Document, report: (page: Page) => void): void {
  let last = { url: doc.URL, title: doc.title };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (doc.URL === last.url && doc.title === last.title) return;
      // The page the visitor came from is the app's previous address, as a page load's referrer would be.
      const page = { url: doc.URL, title: doc.title, referrer: last.url };
      last = { url: doc.URL, title: doc.title };
      report(page);
    }, SETTLE_MS);
  };
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = win.history[name];
    win.history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const answer = original.apply(this, args);
      changed();
      return answer;
    };
  }
  win.addEventListener('popstate', changed);
  win.addEventListener('hashchange', changed);
}
