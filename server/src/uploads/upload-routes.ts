import fs from 'node:fs';
import type Router from '@koa/router';
import type { FileMediaType, UploadView } from '@svc/protocol';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { currentAgent, requireAgent } from '../http/auth.ts';
import { AppError, invalidRequest, notFound, rateLimited } from '../http/errors.ts';
import type { RateLimits } from '../http/rate-limits.ts';
import type { PublicUrls } from '../lib/public-urls.ts';
import { hashToken } from '../lib/secrets.ts';
import type { Store } from '../store/store.ts';
import { mediaTypeOf, UPLOAD_LIMIT_BYTES, UploadRejected, type StoredUpload, type UploadStore } from './upload-store.ts';

interface UploadDeps {
  store: Store;
  uploads: UploadStore;
  urls: PublicUrls;
  rateLimits: RateLimits;
}

/** The answer of an upload: the media fields to send in a message of the matching type (spec 2.1). */
export function uploadView(u: StoredUpload, urls: PublicUrls): UploadView {
  return { type: u.type, file: `${urls.base}/files/${u.key}`, file_name: u.fileName, file_size: u.fileSize, content_type: u.contentType };
}

/** Reads the request body as one file named by `?name=` and stores it; `limit` and `only` narrow what is taken. */
export async function readUpload(
  ctx: Context,
  uploads: UploadStore,
  options: { limit?: number; only?: FileMediaType } = {},
): Promise<StoredUpload> {
  const limit = options.limit ?? UPLOAD_LIMIT_BYTES;
  const name = typeof ctx.query.name === 'string' ? ctx.query.name : '';
  if (!name) throw invalidRequest('name: give the file name in the query, e.g. ?name=photo.png');
  let bytes: Buffer;
  try {
    bytes = await getRawBody(ctx.req, { limit, length: ctx.get('content-length') || undefined });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') {
      throw new AppError('payload_too_large', `A file may have at most ${limit / 1024 / 1024} MB`);
    }
    throw invalidRequest('The file could not be read');
  }
  try {
    return await uploads.save(bytes, name, options.only);
  } catch (err) {
    if (err instanceof UploadRejected) throw invalidRequest(err.message);
    throw err;
  }
}

/**
 * Files that agents and visitors attach. The body is the file itself (not JSON), so these routes sit
 * before the JSON body parser. Files are served from unguessable URLs, never as active content.
 */
export function registerUploadRoutes(router: Router, deps: UploadDeps): void {
  const { store, uploads, urls, rateLimits } = deps;

  router.post('/api/v1/uploads', requireAgent(store), async (ctx) => {
    currentAgent(ctx);
    ctx.status = 201;
    ctx.body = uploadView(await readUpload(ctx, uploads), urls);
  });

  const visitorCors = (ctx: Context) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Allow-Headers', 'content-type, x-visitor-token');
    ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
  };
  router.options('/widget-api/:publicId/uploads', (ctx) => {
    visitorCors(ctx);
    ctx.status = 204;
  });
  router.post('/widget-api/:publicId/uploads', async (ctx) => {
    visitorCors(ctx);
    const channel = await store.channels.findByPublicId(ctx.params.publicId!);
    const token = ctx.get('x-visitor-token');
    const visitor = channel && token ? await store.visitors.findByToken(channel.id, hashToken(token)) : undefined;
    if (!channel || channel.kind !== 'widget' || !visitor) throw notFound('No such widget visitor');
    if (!(await rateLimits.visitorUpdates.take(`visitor:${visitor.id}`))) throw rateLimited(60);
    ctx.status = 201;
    ctx.body = uploadView(await readUpload(ctx, uploads), urls);
  });

  router.get('/files/:folder/:name', async (ctx) => {
    const found = await uploads.open(ctx.params.folder!, ctx.params.name!);
    if (!found) throw notFound('No such file');
    const inline = /^(image|audio|video)\//.test(found.contentType);
    ctx.set('Content-Type', found.contentType);
    ctx.set('Content-Length', String(found.size));
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.set('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(ctx.params.name!)}`);
    ctx.body = fs.createReadStream(found.file);
  });
}

/** The media fields of a file uploaded to this service, read from the stored file (never from what the
 * sender claims), or undefined when the URL names no such file. */
export async function resolveOwnUpload(url: string, urls: PublicUrls, uploads: UploadStore) {
  const prefix = `${urls.base}/files/`;
  if (!url.startsWith(prefix)) return undefined;
  const [folder, encodedName, ...rest] = url.slice(prefix.length).split('/');
  if (!folder || !encodedName || rest.length > 0) return undefined;
  let fileName: string;
  try {
    fileName = decodeURIComponent(encodedName);
  } catch {
    return undefined;
  }
  const found = await uploads.open(folder, fileName);
  if (!found) return undefined;
  return { type: mediaTypeOf(found.contentType), file: url, file_name: fileName, file_size: found.size };
}
