import type { WidgetAppearance } from '@svc/protocol';
import type { Texts } from '../i18n/texts.ts';

/**
 * Links and outlines on the white page use the accent only where it reads (WCAG AA, 4.5:1), else our ink. White
 * text on the accent (accent_text) means exactly that: white is chosen only when it contrasts more than black,
 * and the better of the two always reaches 4.5:1.
 */
const INK = '#1d4fb8';

/**
 * The owner's look and the visitor's language on the frame's document: `lang` and `dir` on `<html>`, the
 * accent colours as CSS custom properties set through the CSSOM (allowed under `style-src 'self'`; the
 * colours passed the admin API's `#rrggbb` check, and setProperty cannot inject another declaration anyway).
 */
export function applyLook(doc: Document, appearance: Pick<WidgetAppearance, 'accent_color' | 'accent_text'> | null, texts: Texts): void {
  const html = doc.documentElement;
  html.lang = texts.locale;
  html.dir = texts.dir;
  if (!appearance) return;
  const { accent_color: accent, accent_text: onAccent } = appearance;
  html.style.setProperty('--accent', accent);
  html.style.setProperty('--accent-text', onAccent);
  html.style.setProperty('--accent-ink', onAccent === '#ffffff' ? accent : INK);
}
