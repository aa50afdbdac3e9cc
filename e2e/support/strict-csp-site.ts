import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A site owner's page on another origin than the service, served with the strictest policy the widget must
 * work under (issue 15): no inline script or style anywhere, the service allowed only where the docs
 * (docs/widget.md, "Strict Content-Security-Policy") tell a site owner to add it. The page holds the single-tag
 * snippet and nothing else of ours; `/page.css` is the site's own stylesheet.
 */
export class StrictCspSite {
  embed = '';
  url = '';
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  private constructor(private readonly serviceUrl: string) {}

  static async start(serviceUrl: string): Promise<StrictCspSite> {
    const site = new StrictCspSite(serviceUrl);
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    site.url = `http://localhost:${(site.server.address() as AddressInfo).port}`;
    return site;
  }

  /** The Content-Security-Policy of the issue, with the service's origin and its WebSocket origin filled in. */
  get policy(): string {
    const service = new URL(this.serviceUrl).origin;
    const ws = service.replace(/^http/, 'ws');
    return [
      "default-src 'self'",
      `script-src 'self' ${service}`,
      `connect-src 'self' ${service} ${ws}`,
      `frame-src ${service}`,
      `img-src 'self' ${service} data:`,
      "style-src 'self'",
    ].join('; ');
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname === '/page.css')
      return void res.writeHead(200, { 'content-type': 'text/css' }).end('body{margin:0;min-height:1500px;font:16px serif}');
    // The page's own script that records violations (inline script is refused here), for engines where a test
    // cannot add an init script (e2e/browsers).
    if (pathname === '/record-violations.js')
      return void res
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(
          "window.__violations=[];document.addEventListener('securitypolicyviolation',function(e){window.__violations.push(e.effectiveDirective+' '+e.blockedURI)});",
        );
    if (pathname !== '/') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': this.policy }).end(`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Locked-down shop</title>
  <link rel="stylesheet" href="/page.css">
  ${this.embed}
</head>
<body>
  <h1>Locked-down shop</h1>
  <p>A page of a site that allows no inline script or style.</p>
</body>
</html>`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
