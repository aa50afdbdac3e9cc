import type { Context, Middleware } from 'koa';
import helmet from 'koa-helmet';

// A Host header as browsers send it; anything else gets no ws source of its own (as in the chat frame's policy).
const HOST = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/** Features no page of the service uses; camera and microphone too (calls go through a provider, not the browser). */
const deniedFeatures = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'usb',
  'xr-spatial-tracking',
];
const PERMISSIONS_POLICY = deniedFeatures.map((feature) => `${feature}=()`).join(', ');

/** Which policy a path gets; the chat frame's own CSP is set by channels/widget/frame-policy.ts. */
export type PolicyName = 'console' | 'demo' | 'widget' | 'docs' | 'api';

export function policyFor(path: string): PolicyName {
  if (path === '/console' || path.startsWith('/console/')) return 'console';
  if (path === '/docs/api' || path.startsWith('/docs/api/')) return 'docs';
  if (path === '/demo' || path.startsWith('/demo/')) return 'demo';
  if (path === '/widget' || path.startsWith('/widget/')) return 'widget';
  return 'api';
}

/** Shared by every policy: nosniff, the referrer kept to the origin across sites, HSTS only behind https. */
const common = (https: boolean) =>
  ({
    xContentTypeOptions: true,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    // Loaded by other sites (the loader, uploaded files, the settings request): no same-origin CORP or COEP.
    crossOriginResourcePolicy: false,
    crossOriginEmbedderPolicy: false,
  }) as const;

/**
 * The console and its admin panel: only their own scripts and styles (Vite emits no inline script; Preact
 * sets styles through CSSOM, which a policy does not govern), requests to this origin and its socket, pictures
 * and media from any http(s) URL (agents' photos, attachments sent as links, spec 2.1), the widget preview
 * frame, and never framed by anyone (clickjacking).
 */
function consoleCsp(sockets: string[]) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      connectSrc: ["'self'", ...sockets],
      imgSrc: ["'self'", 'https:', 'http:'],
      mediaSrc: ["'self'", 'https:', 'http:'],
      fontSrc: ["'self'"],
      frameSrc: ["'self'"],
      manifestSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
    },
  };
}

/** The demo shop: its own script, the widget loader and chat frame from this origin, pictures from anywhere. */
function demoCsp() {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'", 'https:', 'http:', 'data:'],
      frameSrc: ["'self'"],
      fontSrc: ["'self'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
    },
  };
}

/**
 * The API reference (`/docs/api/`): Redoc's bundle from this origin, the document fetched from this origin, and
 * nothing else. Its styles are added by script (styled-components) and its search index runs in a worker made
 * from a blob; no inline script, no eval, no framing.
 */
function docsCsp() {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      workerSrc: ['blob:'],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
    },
  };
}

/** API answers are data, never a document: nothing may run or frame them. */
const apiCsp = { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } };

/**
 * The one place that says which headers each route gets (issue 19, docs/operators.md "Security headers"):
 * - console (`/console/`): strict CSP, no framing, HSTS behind https, a restrictive Permissions-Policy;
 * - demo pages (`/demo/`): the same kind of policy for the sample shop;
 * - the API reference (`/docs/api/`): Redoc from this origin, inline styles (set by its script), a blob worker;
 * - widget files (`/widget/`): nosniff and the referrer policy only; the loader runs under the host page's
 *   policy, and the chat frame carries its own CSP with the channel's `frame-ancestors` (frame-policy.ts),
 *   so no X-Frame-Options here;
 * - everything else (the APIs, uploaded files, /healthz): nosniff, a CSP that allows nothing, and
 *   `Cache-Control: no-store` unless the route chose its own caching (an answer may carry tokens or
 *   personal data, and must not stay in a shared cache).
 */
export function securityHeaders(options: { https: boolean }): Middleware {
  const base = common(options.https);
  const frameable = helmetHeaders({ ...base, contentSecurityPolicy: false, xFrameOptions: false });
  const api = helmetHeaders({ ...base, contentSecurityPolicy: apiCsp, xFrameOptions: { action: 'deny' } });
  const demo = helmetHeaders({ ...base, contentSecurityPolicy: demoCsp(), xFrameOptions: { action: 'deny' } });
  const docs = helmetHeaders({ ...base, contentSecurityPolicy: docsCsp(), xFrameOptions: { action: 'deny' } });
  const consoleFor = new Map<string, PolicyHeaders>();
  const consoleHeaders = (host: string) => {
    const key = HOST.test(host) ? host : '';
    let headers = consoleFor.get(key);
    if (!headers) {
      // ws: and wss: are named since older browsers do not count them as 'self'.
      const sockets = key ? [`ws://${key}`, `wss://${key}`] : [];
      headers = helmetHeaders({ ...base, contentSecurityPolicy: consoleCsp(sockets), xFrameOptions: { action: 'deny' } });
      // A handful of hosts at most (the public name, localhost); the cap keeps a forged Host from growing it.
      if (consoleFor.size < 20) consoleFor.set(key, headers);
    }
    return headers;
  };

  return async (ctx, next) => {
    const policy = policyFor(ctx.path);
    if (policy !== 'widget' && policy !== 'api') ctx.set('Permissions-Policy', PERMISSIONS_POLICY);
    if (policy === 'console') setHeaders(ctx, consoleHeaders(ctx.get('host')));
    else if (policy === 'demo') setHeaders(ctx, demo);
    else if (policy === 'docs') setHeaders(ctx, docs);
    else if (policy === 'widget') setHeaders(ctx, frameable);
    else setHeaders(ctx, api);
    try {
      await next();
    } finally {
      if (policy === 'api' && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
    }
  };
}

/** What a helmet policy does to a response: the headers it sets and those it removes. */
interface PolicyHeaders {
  set: [name: string, value: string][];
  removed: string[];
}

/**
 * Runs helmet once, on a response that only records, and keeps what it did: our policies depend on nothing in
 * the request (no nonces), and running helmet on every request was about 2% of the Chat API intake's CPU
 * (issue 16). Helmet sets its headers before it calls on, synchronously.
 */
function helmetHeaders(policy: Parameters<typeof helmet>[0]): PolicyHeaders {
  const recorded: PolicyHeaders = { set: [], removed: [] };
  const res = {
    setHeader: (name: string, value: unknown) => void recorded.set.push([name, String(value)]),
    removeHeader: (name: string) => void recorded.removed.push(name),
  };
  void helmet(policy)({ req: { headers: {} }, res } as unknown as Context, async () => undefined);
  if (recorded.set.length === 0) throw new Error('helmet set no header: the recording of its policy no longer works');
  return recorded;
}

function setHeaders(ctx: Context, headers: PolicyHeaders) {
  for (const name of headers.removed) ctx.res.removeHeader(name);
  for (const [name, value] of headers.set) ctx.res.setHeader(name, value);
}
