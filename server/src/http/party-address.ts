import { cleanPartyInput } from '@svc/protocol';
import type { Middleware } from 'koa';
import { notFound } from './errors.ts';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001F\u007F]/;

/**
 * The text rule (docs/errors.md "Text") for what a request carries besides its body. Every name in our paths
 * (ids, public ids, secrets, file keys) is one we made, and none holds a control character: such a path names
 * nothing (404) instead of reaching a store that would refuse it. Query values are cleaned as body text is.
 */
export function partyAddress(): Middleware {
  return async (ctx, next) => {
    let path: string;
    try {
      path = decodeURIComponent(ctx.path);
    } catch {
      // Malformed escapes reach the routers as written, which match them as plain text.
      path = ctx.path;
    }
    if (CONTROL.test(path)) throw notFound('No such endpoint');
    if (ctx.querystring) ctx.query = cleanPartyInput(ctx.query) as typeof ctx.query;
    return next();
  };
}
