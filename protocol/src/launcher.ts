import { z } from 'zod';
import type { WidgetAppearance } from './appearance.ts';
import type { WidgetLocale } from './widget-look.ts';

/**
 * The launcher, sent with the widget settings (WidgetSettings.launcher) and mounted by the loader in a shadow
 * root. Sent rather than built into the loader: the loader stays within its 2 KB, and the launcher's look can
 * change on the server without a new loader.
 *
 * A site with `style-src 'self'` refuses `<style>` elements and style attributes from us, so nothing here is
 * one: the loader adopts `css` as a constructed stylesheet, which a Content-Security-Policy does not govern.
 * The owner's colours and offsets reach the CSS only as custom properties of `:host`, and only in the strict
 * forms checked here (`#rrggbb`, whole pixels), whatever was stored; the owner's label reaches the markup only
 * as escaped text.
 *
 * The embed script paints state on the markup (widget/src/host/launcher.ts), so its structure is fixed:
 * div.w > button > (svg, b: the label, span: the unread badge). It is a constant apart from `hidden` and the
 * label, which is escaped here (every character that could start markup or an entity), since the loader sets
 * the whole as HTML.
 */
export const launcherLookSchema = z.object({
  html: z.string(),
  /** The launcher's stylesheet, led by the owner's look as custom properties of the shadow root's host. */
  css: z.string(),
});
export type LauncherLook = z.infer<typeof launcherLookSchema>;

const CSS =
  '.w{position:fixed;bottom:var(--svc-y);left:var(--svc-l);right:var(--svc-r);z-index:2147483000}' +
  'button{all:unset;display:flex;align-items:center;gap:8px;padding:14px;border-radius:28px;background:var(--svc-accent);' +
  'color:var(--svc-on-accent);cursor:pointer;font:600 15px/20px system-ui,sans-serif}' +
  'svg{display:block;fill:currentColor}b{padding-right:6px}b:empty{display:none}' +
  'button:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}.offline{background:#555;color:#fff}' +
  'span{position:absolute;top:-4px;right:-4px;padding:0 6px;border-radius:9px;background:#c81e1e;color:#fff;font:700 12px/18px sans-serif}';

/** Text as HTML shows it, whatever it holds. */
const htmlText = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A colour as CSS takes it, `#rrggbb`, else none: nothing but the strict form ever reaches the stylesheet. */
const cssColour = (value: string) => (/^#[0-9a-f]{6}$/i.test(value) ? value : 'initial');
const cssPixels = (value: number) => `${Number.isInteger(value) ? value : 0}px`;

/** `hidden`: the channel's business hours hide the widget now; svc_api keeps working. `locale`: the widget's
 * language for this visitor (chooseLocale). The owner's launcher label in that language
 * (appearance.texts[locale]['launcher.label'], else appearance.launcher_label) is shown beside the icon; none:
 * the icon alone. */
export function launcherLook(appearance: WidgetAppearance, hidden = false, locale: WidgetLocale = 'en'): LauncherLook {
  const left = appearance.side === 'left';
  const label = appearance.texts[locale]?.['launcher.label'] ?? appearance.launcher_label;
  const offset = cssPixels(appearance.offset_x);
  const look: [string, string][] = [
    ['--svc-accent', cssColour(appearance.accent_color)],
    ['--svc-on-accent', cssColour(appearance.accent_text)],
    ['--svc-y', cssPixels(appearance.offset_y)],
    ['--svc-l', left ? offset : 'auto'],
    ['--svc-r', left ? 'auto' : offset],
    // The chat window opens above the launcher, on the same side (widget/src/host/launcher.ts FRAME_CSS).
    ['--svc-frame-l', left ? '0' : 'auto'],
    ['--svc-frame-r', left ? 'auto' : '0'],
  ];
  return {
    html:
      // With a label shown, the label is the button's name (WCAG 2.5.3, label in name).
      `<div class=w${hidden ? ' hidden' : ''}><button${label ? '' : ' aria-label="Open chat"'} aria-expanded=false>` +
      '<svg width=28 viewBox="0 0 24 24" aria-hidden=true><path d="M3 4h18v13H9l-5 4v-4H3z"/></svg>' +
      `<b>${label ? htmlText(label) : ''}</b><span hidden></span></button></div>`,
    css: `:host{${look.map(([name, value]) => `${name}:${value}`).join(';')}}${CSS}`,
  };
}
