import type { LauncherLook } from '@svc/protocol';
import type { FrameState } from '../bridge/messages.ts';

/** The frame's place, added by the embed script as a constructed stylesheet (no `<style>`: a host page's
 * `style-src 'self'` refuses it). It opens on the launcher's side (the `--svc-frame-*` properties of the
 * launcher's look). Below 480 px the open chat fills the screen (phones down to 320 px wide) and the launcher
 * steps aside: the frame has its own minimize button. */
export const FRAME_CSS =
  'iframe{position:absolute;left:var(--svc-frame-l);right:var(--svc-frame-r);bottom:68px;width:370px;height:min(600px,100vh - 110px);border:0;border-radius:12px;box-shadow:0 4px 24px #0005}' +
  '@media(max-width:480px){.o iframe{position:fixed;inset:0;width:100%;height:100%;border-radius:0}.o button{display:none}}';

/** What the launcher says to screen readers; one place for the catalogue to take over. */
export const launcherText = {
  open: 'Open chat',
  minimize: 'Minimize chat',
  unread: (unread: number) => `Open chat, ${unread} unread`,
};

/** Adds a stylesheet to a shadow root through CSSOM, which a Content-Security-Policy does not govern. */
export function adoptCss(root: ShadowRoot, css: string): void {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** Mounts the launcher (from the settings: protocol/src/launcher.ts) in a shadow root of an element of our
 * own, where the page's CSS does not reach in and ours does not leak out; in the loader. */
export function mountLauncher(doc: Document, look: LauncherLook, toggle: () => void): ShadowRoot {
  const host = doc.createElement('svc-widget');
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(look.css);
  root.adoptedStyleSheets = [sheet];
  // The service's own markup (the owner's label in it escaped by the service), from the origin this loader came from.
  root.innerHTML = look.html;
  // On the element that holds the launcher: a click on its button (or Enter, or Space) comes out of the shadow
  // root to it, and nothing else in there takes clicks (a click in the chat window stays in the frame).
  host.onclick = toggle;
  // Beside the page's body rather than in it: there from the start however the page is built, and out of
  // reach of an app that rewrites its body.
  doc.documentElement.append(host);
  return root;
}

/** Shows the window state, the unread count and the chat mode; in the embed script. */
export function paintLauncher(root: ShadowRoot, { view, unread, status, label }: FrameState): void {
  const open = view !== 'closed';
  const button = root.querySelector('button')!;
  const badge = root.querySelector('span')!;
  const frame = root.querySelector('iframe');
  // The frame's words in the visitor's language (`label`), ours until it has loaded them. A label the owner
  // shows on the closed launcher starts its name (WCAG 2.5.3, label in name).
  const shown = root.querySelector('b')!.textContent;
  const closedWithLabel = !open && !!shown;
  const fallback = open ? launcherText.minimize : unread ? launcherText.unread(unread) : launcherText.open;
  root.querySelector('div')!.className = open ? 'w o' : 'w';
  if (frame) frame.hidden = !open;
  button.className = status;
  button.ariaExpanded = String(open);
  button.ariaLabel = closedWithLabel ? (label ? `${shown} (${label})` : shown) : (label ?? fallback);
  badge.hidden = !unread || open;
  badge.textContent = String(unread);
}
