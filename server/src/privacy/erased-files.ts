import fs from 'node:fs';
import path from 'node:path';
import type { MediaFields } from '@svc/protocol';
import type { PublicUrls } from '../lib/public-urls.ts';

/**
 * Removes the uploaded files that erased messages carried (each upload has a folder of its own under the
 * uploads directory) and answers how many went. A link to anywhere else is not ours to remove.
 */
export async function removeErasedFiles(mediaJson: string[], uploadsDir: string, urls: PublicUrls): Promise<number> {
  const prefix = `${urls.base}/files/`;
  let removed = 0;
  const links = mediaJson.flatMap((json) => {
    const media = JSON.parse(json) as MediaFields;
    return [media.file, media.thumb];
  });
  for (const url of links) {
    if (typeof url !== 'string' || !url.startsWith(prefix)) continue;
    const folder = url.slice(prefix.length).split('/')[0]!;
    if (!/^[\w-]+$/.test(folder)) continue;
    const dir = path.join(uploadsDir, folder);
    if (!fs.existsSync(dir)) continue;
    await fs.promises.rm(dir, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
