import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { guardedLookup, isPrivateAddress, type UrlPolicy } from './outbound-url.ts';

export interface PostJsonOptions {
  timeoutMs: number;
  /** Send with `Transfer-Encoding: chunked` instead of a Content-Length header (spec 4.1). */
  chunked?: boolean;
  headers?: Record<string, string>;
  policy: UrlPolicy;
  /** Defaults to JSON. */
  contentType?: string;
}

export interface PostJsonResponse {
  status: number;
  body: string;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

interface Target {
  transport: typeof http | typeof https;
  host: string;
  options: http.RequestOptions;
}

/** Targets as http.request takes them, parsed once per URL: an outbox sends to a few URLs many times. */
const targets = new Map<string, Target>();
const MAX_TARGETS = 1000;

function targetOf(raw: string): Target {
  let target = targets.get(raw);
  if (target) return target;
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  target = {
    transport: url.protocol === 'https:' ? https : http,
    host,
    options: {
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      ...(url.username || url.password ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
    },
  };
  if (targets.size >= MAX_TARGETS) targets.clear();
  targets.set(raw, target);
  return target;
}

const lookups = new WeakMap<UrlPolicy, ReturnType<typeof guardedLookup>>();
const lookupFor = (policy: UrlPolicy) => {
  let lookup = lookups.get(policy);
  if (!lookup) lookups.set(policy, (lookup = guardedLookup(policy)));
  return lookup;
};

/** POSTs a JSON body (already serialized, so it can be signed as sent) and reads the answer (at most
 * 64 KiB of it). Rejects on timeout, refusal or a forbidden address. */
export function postJson(raw: string, json: string, options: PostJsonOptions): Promise<PostJsonResponse> {
  let target: Target;
  try {
    target = targetOf(raw);
  } catch (err) {
    return Promise.reject(err as Error);
  }
  const host = target.host;
  if (net.isIP(host) && !options.policy.allowPrivate && isPrivateAddress(host)) {
    return Promise.reject(new Error(`${host} is a private address`));
  }
  const body = Buffer.from(json);
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/json',
    'user-agent': 'svc-chat',
    ...options.headers,
    ...(options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }),
  };
  return new Promise((resolve, reject) => {
    // One timer bounds the whole attempt (connect, send, answer): no socket idle timeout to set and clear.
    const req = target.transport.request({ ...target.options, method: 'POST', headers, lookup: lookupFor(options.policy) });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.end(body);
  });
}
