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

/** POSTs a JSON body (already serialized, so it can be signed as sent) and reads the answer (at most
 * 64 KiB of it). Rejects on timeout, refusal or a forbidden address. */
export function postJson(target: string, json: string, options: PostJsonOptions): Promise<PostJsonResponse> {
  const url = new URL(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
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
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, { method: 'POST', headers, lookup: guardedLookup(options.policy), timeout: options.timeoutMs });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
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
