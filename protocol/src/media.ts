import { z } from 'zod';
import { isHttpUrl } from './url.ts';

export { isHttpUrl };

/** Message types of spec 2.1 that carry content (typein/typeout are typing, not messages). */
export const fileMediaTypes = ['video', 'audio', 'voice', 'photo', 'sticker', 'document'] as const;
/** Rich bot messages (spec 2.2): MARKDOWN and BUTTONS, kept with their plain-text fallback in `text`. */
export const botRichTypes = ['markdown', 'buttons'] as const;
export const messageTypes = ['text', ...fileMediaTypes, 'location', ...botRichTypes] as const;
export type MessageType = (typeof messageTypes)[number];
export type FileMediaType = (typeof fileMediaTypes)[number];

export const httpUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => isHttpUrl(value), { message: 'must be an http:// or https:// URL' });

const positiveInt = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The multimedia fields of spec 2.1, as stored and as shown to agents. Every field is optional here;
 * which ones a type requires is decided by the schema of each API. */
export const mediaFieldsSchema = z.object({
  file: httpUrlSchema.optional(),
  thumb: httpUrlSchema.optional(),
  emoji: z.string().max(64).optional(),
  file_size: positiveInt.optional(),
  file_name: z.string().max(512).optional(),
  duration: positiveInt.optional(),
  width: positiveInt.optional(),
  height: positiveInt.optional(),
  performer: z.string().max(512).optional(),
  title: z.string().max(512).optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  /** MARKDOWN bot messages: the markdown source (link, bold, italic). */
  content: z.string().max(8000).optional(),
  /** BUTTONS bot messages: the prepared answers (spec 2.2); `title` holds the title above them. */
  buttons: z
    .array(z.object({ text: z.string().max(200), id: z.string().max(200).optional() }))
    .max(3)
    .optional(),
  /** A client message sent by clicking a bot button. */
  button_id: z.string().max(200).optional(),
});
export type MediaFields = z.infer<typeof mediaFieldsSchema>;
export const mediaFieldNames = Object.keys(mediaFieldsSchema.shape) as (keyof MediaFields)[];

/** The last path segment of a URL, decoded: the best file name there is when a sender gives none. */
export function fileNameFromUrl(url: string): string | undefined {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || undefined;
  } catch {
    return segment || undefined;
  }
}
