import type { Middleware } from 'koa';
import { PARTY_INPUT_MAX_DEPTH, parsePartyJson, TooDeeplyNested } from '@svc/protocol';
import getRawBody from 'raw-body';
import { AppError, invalidRequest } from './errors.ts';

/** 64 KiB: a 1000-character message is at most 4 KB of UTF-8 plus its envelope; this leaves ample room. */
export const BODY_LIMIT_BYTES = 64 * 1024;
/** Agents' private notes and saved replies (issue 17): read far enough past their 4000-character limit that a
 * text pasted too long is answered by that field's rule (400 naming `text`), not by the size of the body. */
export const AGENT_TEXT_BODY_LIMIT_BYTES = 256 * 1024;
const BYTE_ORDER_MARK = 0xfeff;
const AGENT_TEXT_ROUTE = /^\/api\/v1\/(chats\/[^/]+\/notes|canned-replies(\/[^/]+)?)$/;

/** The body limit of a request: larger for those routes, which also need an agent's token. */
export const bodyLimitFor = (path: string) => (AGENT_TEXT_ROUTE.test(path) ? AGENT_TEXT_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES);

const QUOTE = 0x22;
const [OPEN_OBJECT, OPEN_ARRAY, CLOSE_OBJECT, CLOSE_ARRAY] = ['{', '[', '}', ']'].map((c) => c.charCodeAt(0));

/**
 * `parsePartyJson` of text decoded from UTF-8, without its copy of the value where the text rule cannot change it.
 * Text with no backslash has no escape, so none of its strings can hold a control character (JSON refuses them
 * unescaped) or a lone surrogate (decoding UTF-8 replaces bad bytes): the clean copy would equal what JSON.parse
 * gives, and only the depth is left to check, on the text. Most bodies are such text; the copy cost the Chat API
 * intake about 4% of its CPU (issue 16).
 * @throws SyntaxError, TooDeeplyNested
 */
export function parseBodyJson(text: string): unknown {
  if (text.includes('\\')) return parsePartyJson(text);
  const value: unknown = JSON.parse(text);
  // Each level takes an opening and a closing bracket: shorter text cannot nest too deep.
  if (text.length > 2 * PARTY_INPUT_MAX_DEPTH) checkDepth(text);
  return value;
}

/** Throws as `cleanPartyInput` would for valid JSON text without a backslash (no quote inside a string is escaped). */
function checkDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) inString = !inString;
    else if (inString) continue;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > PARTY_INPUT_MAX_DEPTH) throw new TooDeeplyNested();
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
}

/**
 * Reads the body as JSON whatever its Content-Type: real integrations send JSON as text/plain or with no
 * type at all. An empty body is `undefined`. Every string in it follows the text rule (`cleanPartyInput`).
 */
export function jsonBody(limitFor: (path: string) => number = bodyLimitFor): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'OPTIONS' || ctx.method === 'DELETE') return next();
    const limit = limitFor(ctx.path);
    let text: string;
    try {
      // Read as bytes and decoded here: raw-body's own decoding streams through iconv-lite, a measurable part of
      // the Chat API intake's CPU (issue 16). A leading byte order mark is dropped, as iconv-lite did.
      const bytes = await getRawBody(ctx.req, { limit, length: ctx.get('content-length') || undefined });
      text = bytes.toString('utf8');
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
    } catch (err) {
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') throw new AppError('payload_too_large', `The request body is larger than ${limit} bytes`);
      if (type === 'request.aborted') throw invalidRequest('The request was aborted');
      throw invalidRequest('The request body could not be read');
    }
    if (text.trim() !== '') {
      try {
        ctx.request.body = parseBodyJson(text);
      } catch (err) {
        if (err instanceof TooDeeplyNested) throw invalidRequest(`The request body is ${err.message}`);
        throw invalidRequest('The request body is not valid JSON');
      }
    }
    return next();
  };
}

declare module 'koa' {
  interface Request {
    body?: unknown;
  }
}
