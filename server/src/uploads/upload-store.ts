import fs from 'node:fs';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { FileMediaType } from '@svc/protocol';
import { randomToken } from '../lib/secrets.ts';

export { UPLOAD_LIMIT_BYTES } from '@svc/protocol/upload-rules';

/** What may be uploaded, by the type its bytes show (never by the name or the declared type). SVG and HTML
 * are not on the list: they can carry scripts. */
const allowed: Record<string, FileMediaType> = {
  'image/png': 'photo',
  'image/jpeg': 'photo',
  'image/gif': 'photo',
  'image/webp': 'photo',
  'video/mp4': 'video',
  'video/webm': 'video',
  'video/quicktime': 'video',
  'audio/mpeg': 'audio',
  'audio/ogg': 'voice',
  'audio/opus': 'voice',
  'audio/wav': 'audio',
  'audio/x-wav': 'audio',
  'audio/mp4': 'audio',
  'audio/x-m4a': 'audio',
  'audio/webm': 'voice',
  'application/pdf': 'document',
  'application/zip': 'document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'document',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'document',
  'application/vnd.oasis.opendocument.text': 'document',
  'application/vnd.oasis.opendocument.spreadsheet': 'document',
};
/** The file kinds of one media type, for an error message: `png, jpeg, gif, webp`. */
const acceptedKinds = (type: FileMediaType) =>
  Object.keys(allowed)
    .filter((mime) => allowed[mime] === type)
    .map((mime) => mime.split('/')[1])
    .join(', ');

/** The spec 2.1 message type for a stored file's content type. */
export function mediaTypeOf(contentType: string): FileMediaType {
  return allowed[contentType] ?? 'document';
}

const textExtensions = new Set(['.txt', '.csv', '.log', '.md']);

export interface StoredUpload {
  type: FileMediaType;
  /** Path below the uploads URL: `<random>/<name>`. */
  key: string;
  fileName: string;
  fileSize: number;
  contentType: string;
}

export class UploadRejected extends Error {}

/** A name's end that file systems take: at most 120 characters and 200 UTF-8 bytes (most allow 255 bytes). */
function nameEnd(name: string): string {
  const chars = [...name].slice(-120);
  let bytes = 0;
  let start = chars.length;
  while (start > 0 && bytes + Buffer.byteLength(chars[start - 1]!) <= 200) bytes += Buffer.byteLength(chars[--start]!);
  return chars.slice(start).join('');
}

/** Keeps a file name readable but harmless: no paths, no control characters, short enough to store; the end
 * of a long name is kept, where its extension is. */
export function safeFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/')).normalize('NFC');
  const cleaned = base
    .replace(/[\p{Cc}\p{Cf}<>:"/\\|?*]/gu, '_')
    .replace(/^\.+/, '')
    .trim();
  return nameEnd(cleaned).replace(/^[.\s]+/, '') || 'file';
}

/** Files attached to messages, stored under the data directory in folders with unguessable names. */
export function createUploadStore(dir: string) {
  return {
    dir,
    /** Stores an accepted file; with `only`, a file of another media type is refused too (an agent's photo). */
    async save(bytes: Buffer, declaredName: string, only?: FileMediaType): Promise<StoredUpload> {
      if (bytes.length === 0) throw new UploadRejected('The file is empty');
      const fileName = safeFileName(declaredName);
      const sniffed = await fileTypeFromBuffer(bytes);
      if (only && (!sniffed || allowed[sniffed.mime] !== only)) {
        throw new UploadRejected(`Only ${acceptedKinds(only)} files are accepted${sniffed ? ` (this is ${sniffed.mime})` : ''}`);
      }
      let contentType: string;
      let type: FileMediaType;
      if (sniffed && allowed[sniffed.mime]) {
        contentType = sniffed.mime;
        type = allowed[sniffed.mime]!;
      } else if (!sniffed && textExtensions.has(path.extname(fileName).toLowerCase()) && isUtf8Text(bytes)) {
        contentType = 'text/plain; charset=utf-8';
        type = 'document';
      } else {
        throw new UploadRejected(`This kind of file is not accepted${sniffed ? ` (${sniffed.mime})` : ''}`);
      }
      const folder = randomToken(18);
      await fs.promises.mkdir(path.join(dir, folder), { recursive: true });
      await fs.promises.writeFile(path.join(dir, folder, fileName), bytes, { flag: 'wx' });
      await fs.promises.writeFile(path.join(dir, folder, '.type'), contentType);
      return { type, key: `${folder}/${encodeURIComponent(fileName)}`, fileName, fileSize: bytes.length, contentType };
    },
    /** The stored file and its type, or undefined. */
    async open(folder: string, fileName: string): Promise<{ file: string; contentType: string; size: number } | undefined> {
      if (!/^[\w-]{24}$/.test(folder) || fileName !== safeFileName(fileName)) return undefined;
      const file = path.join(dir, folder, fileName);
      try {
        const [stat, contentType] = await Promise.all([
          fs.promises.stat(file),
          fs.promises.readFile(path.join(dir, folder, '.type'), 'utf8'),
        ]);
        return stat.isFile() ? { file, contentType, size: stat.size } : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
export type UploadStore = ReturnType<typeof createUploadStore>;

function isUtf8Text(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return !bytes.includes(0);
  } catch {
    return false;
  }
}
