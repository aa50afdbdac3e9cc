import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { send } from '@koa/send';
import type Koa from 'koa';

/** Where the demo shop page asks for the widget snippet; the server puts the demo channel's embed there. */
export const DEMO_EMBED_PLACEHOLDER = '<!--SVC_EMBED-->';

/** Built front ends the server hands out: the widget bundle, the agents' console, the demo shop and the API reference. */
export function mountStaticSites(
  app: Koa,
  staticDir: string | undefined,
  options: { demoEmbed?: () => Promise<string | undefined> } = {},
): string[] {
  const root = staticDir ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const sites = [
    { prefix: '/widget', dir: path.join(root, 'widget/dist') },
    { prefix: '/console', dir: path.join(root, 'demo-site/dist/console') },
    { prefix: '/demo', dir: path.join(root, 'demo-site/shop') },
    // The API reference: GET /api/openapi.json rendered by Redoc (server/build.mjs puts it there).
    { prefix: '/docs/api', dir: path.join(root, 'server/dist/api-docs') },
  ];
  const mounted = sites.filter((site) => fs.existsSync(site.dir));
  app.use(async (ctx, next) => {
    const site = mounted.find((s) => ctx.path === s.prefix || ctx.path.startsWith(`${s.prefix}/`));
    if (!site || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (ctx.path === site.prefix) return ctx.redirect(`${site.prefix}/`);
    const relative = ctx.path.slice(site.prefix.length + 1) || 'index.html';
    if (site.prefix === '/demo' && relative === 'index.html' && options.demoEmbed) {
      const html = await fs.promises.readFile(path.join(site.dir, 'index.html'), 'utf8');
      ctx.type = 'html';
      ctx.body = html.replace(
        DEMO_EMBED_PLACEHOLDER,
        (await options.demoEmbed()) ?? '<!-- no demo widget channel: start with SVC_DEMO=1 -->',
      );
      return;
    }
    const sent = await send(ctx, relative, { root: site.dir, index: 'index.html' }).catch((err: { status?: number }) => {
      if (err.status === 404) return undefined;
      throw err;
    });
    if (!sent) return next();
    // mime-db knows `.ts` only as an MPEG transport stream; the page authors' declarations are TypeScript.
    if (relative.endsWith('.d.ts')) ctx.type = 'application/typescript; charset=utf-8';
  });
  return mounted.map((s) => s.prefix);
}
