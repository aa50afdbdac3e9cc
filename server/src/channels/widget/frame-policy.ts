import type Koa from 'koa';
import type { Store } from '../../store/store.ts';

/** Where the loader's embed script points the chat frame: `?w=<widget id>` names the channel it shows. */
export const FRAME_PATH = '/widget/frame.html';

// A Host header as browsers send it: a name or address and a port; anything else gets no ws source of its own.
const HOST = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/**
 * The chat frame's own Content-Security-Policy. Vite emits the frame as one module script and one stylesheet
 * (no inline script, no style element, modulepreload off) and Preact sets style props through CSSOM, so
 * neither `unsafe-inline` nor `unsafe-eval` is needed.
 * - connect-src: the settings and upload requests and the visitors' socket.io (WebSocket, else long polling)
 *   go to the service's own origin; ws: and wss: are named since older browsers do not count them as 'self'.
 * - img-src and media-src: agent photos and attachments are served by the service, but agents, bots and Chat
 *   API integrators may also send pictures, audio and video as any http(s) URL (spec 2.1), which the widget
 *   shows after checking the scheme (widget/src/lib/safe-url.ts). No data: or blob: URL is ever made.
 * - frame-ancestors: the channel's allowed sites and the service itself (the console's preview, the demo shop);
 *   none listed, no such directive: any page may show the chat, as any page may run the loader.
 */
export function frameCsp(allowedSites: string[], host: string | undefined): string {
  const sockets = host && HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self'${sockets}`,
    "img-src 'self' https: http:",
    "media-src 'self' https: http:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    ...(allowedSites.length ? [`frame-ancestors 'self' ${allowedSites.join(' ')}`] : []),
  ].join('; ');
}

/** Serves the chat frame with its policy; the frame itself refuses to start for another widget than `w`. */
export function widgetFramePolicy(store: Store): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== FRAME_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const widgetId = typeof ctx.query.w === 'string' ? ctx.query.w : undefined;
    const channel = widgetId ? await store.channels.findByPublicId(widgetId) : undefined;
    const sites = channel?.kind === 'widget' ? await store.channelSites.list(channel.id) : [];
    ctx.set('Content-Security-Policy', frameCsp(sites, ctx.get('host') || undefined));
    return next();
  };
}
