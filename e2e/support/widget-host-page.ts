import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The spec 6.3 callbacks the host page defines; each records its call into window.__calls. */
export const PAGE_CALLBACKS = [
  'svc_onLoadCallback',
  'svc_onOpen',
  'svc_onClose',
  'svc_onMessageSent',
  'svc_onAccept',
  'svc_onIntroduction',
  'svc_onResizeCallback',
  'svc_onChangeState',
  'svc_onCallStart',
  'svc_onCallEnd',
] as const;

// A 1x1 PNG, for photos, stickers and avatars that really load.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * A site owner's page on another origin than the service (`localhost` against the service's `127.0.0.1`, so
 * another site, as on the web): the channel's embed snippet and nothing else of ours, the page callbacks
 * defined before it (each records its calls in `window.__calls`, then runs `window.__hooks[name]` when a test
 * set one), and CSS that would wreck a widget that is not isolated. `?throw=<callback>` makes that
 * callback throw; `/pixel.png` serves a small image.
 */
export class WidgetHostPage {
  /** The channel's embed snippet, pasted into the page as a site owner would. */
  embed = '';
  url = '';
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  static async start(): Promise<WidgetHostPage> {
    const site = new WidgetHostPage();
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    site.url = `http://localhost:${(site.server.address() as AddressInfo).port}`;
    return site;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/pixel.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
    const app = url.pathname.startsWith('/app/');
    if (url.pathname !== '/' && url.pathname !== '/other-page' && !app) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(this.embed, url.searchParams.get('throw'), app));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Under `/app/`: a single-page app, as a React or Vue router makes one. Its links change the address with
 * `history.pushState` and then the title, the back button (`popstate`) sets the title of the page it returns
 * to; the page is never loaded again.
 */
const SPA = `
  <nav><a href="/app/teas" data-title="Teas">Teas</a> <a href="/app/cart" data-title="Cart">Cart</a></nav>
  <script>
    const titles = { '/app/': 'Host shop', '/app/teas': 'Teas', '/app/cart': 'Cart' };
    document.addEventListener('click', (event) => {
      const link = event.target.closest('a[data-title]');
      if (!link) return;
      event.preventDefault();
      history.pushState({}, '', link.getAttribute('href'));
      setTimeout(() => (document.title = link.dataset.title), 50);
    });
    addEventListener('popstate', () => (document.title = titles[location.pathname] || 'Host shop'));
  </script>`;

function page(embed: string, throwing: string | null, app = false): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Host shop</title>
  <style>
    /* A page's broad rules: none of them may reach the widget. */
    * { font-family: serif !important; color: #c00 !important; }
    button, iframe, span, div { display: none !important; visibility: hidden !important; }
    body { margin: 0; min-height: 1500px; }
  </style>
  <script>
    window.__calls = [];
    // A test's own page code for a callback (set with page.addInitScript), run after the call is recorded.
    window.__hooks = window.__hooks || {};
    for (const name of ${JSON.stringify(PAGE_CALLBACKS)}) {
      window[name] = function (...args) {
        window.__calls.push({ name, args });
        window.__hooks[name]?.(...args);
        if (name === ${JSON.stringify(throwing)}) throw new Error('host page bug in ' + name);
      };
    }
  </script>
</head>
<body>
  <h1>Host shop</h1>
  <p>A page of the site that embeds the chat.</p>
  ${app ? SPA : ''}
  ${embed}
</body>
</html>`;
}
