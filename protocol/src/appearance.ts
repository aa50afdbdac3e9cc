import { z } from 'zod';
import { codePointLength } from './text.ts';
import { ownerOnlyTextKeys, widgetTextKeys } from './widget-text-keys.ts';
import { DEFAULT_ACCENT_COLOR, textColorOn, widgetLocales } from './widget-look.ts';

export * from './widget-look.ts';

/**
 * A widget channel's look and language (contract: "Widget appearance and language"). The admin API stores it,
 * the widget settings response carries it resolved (defaults filled in, the text colour on the accent chosen).
 */

export const widgetSides = ['right', 'left'] as const;
export type WidgetSide = (typeof widgetSides)[number];

const limitedText = (max: number) =>
  z
    .string()
    .trim()
    .refine((text) => codePointLength(text) <= max, `at most ${max} characters`)
    .nullable();

/** A key of the widget's catalogue (protocol/src/widget-text-keys.ts), or the launcher's owner-only label. */
export const textKeySchema = z.enum([...widgetTextKeys, ...ownerOnlyTextKeys]);

export const appearanceInputSchema = z
  .object({
    accent_color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour written #rrggbb'),
    side: z.enum(widgetSides),
    offset_x: z.number().int().min(0).max(200),
    offset_y: z.number().int().min(0).max(200),
    launcher_label: limitedText(60),
    title: limitedText(60),
    greeting: limitedText(500),
    language: z.enum(['auto', ...widgetLocales]),
    texts: z.partialRecord(z.enum(widgetLocales), z.partialRecord(textKeySchema, z.string().max(500))),
  })
  .partial()
  .strict();
export type AppearanceInput = z.infer<typeof appearanceInputSchema>;

/** The stored appearance with every default filled in. */
export const widgetAppearanceSchema = z.object({
  accent_color: z.string(),
  /** The text colour on the accent, black or white, whichever contrasts more (always >= 4.5:1 with one). */
  accent_text: z.enum(['#000000', '#ffffff']),
  side: z.enum(widgetSides),
  offset_x: z.number().int(),
  offset_y: z.number().int(),
  launcher_label: z.string().nullable(),
  title: z.string().nullable(),
  greeting: z.string().nullable(),
  language: z.enum(['auto', ...widgetLocales]),
  texts: z.partialRecord(z.enum(widgetLocales), z.partialRecord(textKeySchema, z.string())),
});
export type WidgetAppearance = z.infer<typeof widgetAppearanceSchema>;

/** `GET`/`PUT /api/v1/channels/:id/appearance` answer: the appearance resolved, and the languages one may choose. */
export const widgetAppearanceViewSchema = widgetAppearanceSchema.extend({ languages: z.array(z.enum(widgetLocales)).readonly() });
export type WidgetAppearanceView = z.infer<typeof widgetAppearanceViewSchema>;

/** Fills in the defaults of what an admin stored. */
export function resolveAppearance(stored: AppearanceInput): WidgetAppearance {
  const accent = (stored.accent_color ?? DEFAULT_ACCENT_COLOR).toLowerCase();
  return {
    accent_color: accent,
    accent_text: textColorOn(accent),
    side: stored.side ?? 'right',
    offset_x: stored.offset_x ?? 20,
    offset_y: stored.offset_y ?? 20,
    launcher_label: stored.launcher_label ?? null,
    title: stored.title ?? null,
    greeting: stored.greeting ?? null,
    language: stored.language ?? 'auto',
    texts: stored.texts ?? {},
  };
}
