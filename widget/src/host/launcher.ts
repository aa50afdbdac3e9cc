import type { FrameState } from '../bridge/messages.ts';

/** The frame's place, added by the embed script. Below 480 px the open chat fills the screen (phones down to
 * 320 px wide) and the launcher steps aside: the frame has its own minimize button. */
export const FRAME_CSS =
  'iframe{position:absolute;right:0;bottom:68px;width:370px;height:min(600px,100vh - 110px);border:0;border-radius:12px;box-shadow:0 4px 24px #0005}' +
  '@media(max-width:480px){.o iframe{position:fixed;inset:0;width:100%;height:100%;border-radius:0}.o button{display:none}}';

/** Mounts the launcher (markup from the settings: protocol/src/launcher.ts) in a shadow root of an element of
 * our own, where the page's CSS does not reach in and ours does not leak out; in the loader. */
export function mountLauncher(doc: Document, markup: string, toggle: () => void): ShadowRoot {
  const host = doc.createElement('svc-widget');
  const root = host.attachShadow({ mode: 'open' });
  // The service's own constant markup (protocol/src/launcher.ts: no text from any party in it), from the
  // origin this loader itself came from.
  root.innerHTML = markup;
  root.querySelector('button')!.onclick = toggle;
  (doc.body ?? doc.documentElement).append(host);
  return root;
}

/** Shows the window state, the unread count and the chat mode; in the embed script. */
export function paintLauncher(root: ShadowRoot, { view, unread, status, label }: FrameState): void {
  const open = view !== 'closed';
  const button = root.querySelector('button')!;
  const badge = root.querySelector('span')!;
  const frame = root.querySelector('iframe');
  root.querySelector('div')!.className = open ? 'w o' : 'w';
  if (frame) frame.hidden = !open;
  button.className = status;
  button.ariaExpanded = String(open);
  button.ariaLabel = label ?? (open ? 'Minimize chat' : unread ? `Open chat, ${unread} unread` : 'Open chat');
  badge.hidden = !unread || open;
  badge.textContent = String(unread);
}
