import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { e2eEnv } from '../support/e2e-env.ts';
import { typeErrorsOfModule } from '../support/page-script-compiler.ts';
import { expect, test } from '../support/widget-fixtures.ts';

const appEntry = fileURLToPath(new URL('../fixtures/loader-package-app/app.ts', import.meta.url));

/**
 * A site that bundles its pages: one HTML page and the app's bundle, under a policy that runs no inline script
 * (only its own scripts and the service's).
 */
async function startAppSite(html: string, appJs: string, service: string) {
  const server = http.createServer((req, res) => {
    const csp = `script-src 'self' ${service}`;
    if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(appJs);
    if (req.url === '/')
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(html);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test.describe('widget: @svc/widget-loader', () => {
  test('widget: an app built with the package loads the widget once, gets svc_api, opens the chat, and its visitor reaches an agent', async ({
    widget,
    widgetPage,
    page,
  }) => {
    test.slow(); // a strict TypeScript compile and a bundle on a loaded machine
    expect(typeErrorsOfModule(appEntry)).toEqual([]);
    const bundle = await build({
      entryPoints: [appEntry],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const { baseUrl } = e2eEnv();
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tea app</title><script type="module" src="/app.js"></script></head>
<body><main data-widget-id="${widget.channel.public_id}" data-base-url="${baseUrl}"><h1>Tea app</h1></main></body></html>`;
    const site = await startAppSite(html, bundle.outputFiles[0]!.text, new URL(baseUrl).origin);
    const violations: string[] = [];
    page.on('console', (message) => message.text().includes('Content Security Policy') && violations.push(message.text()));
    try {
      await widgetPage.goto(site.url);
      await expect(page.locator('#app-status')).toHaveText('svc_api ready (online), one load');
      await expect(page.locator('script[data-svc-widget]')).toHaveCount(1);

      await page.getByRole('link', { name: 'Ask us' }).click();
      await expect(widgetPage.textbox).toBeVisible();
      await widgetPage.say('Hello from the tea app');
      const chat = await widget.agentApi.chatWith('Hello from the tea app');
      await widget.agentApi.say(chat.id, 'Hello, app user');
      await expect(page.locator('#app-reply')).toHaveText('Hello, app user');
      await expect(widgetPage.message('Hello, app user')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('app-with-widget.png') });
      expect(violations).toEqual([]);
    } finally {
      await site.close();
    }
  });
});
