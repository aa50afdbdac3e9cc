import type { FrameState } from '../bridge/messages.ts';

// All in a shadow root of an element of our own: the page's CSS does not reach in, ours does not leak out.
const CSS =
  '.w{position:fixed;right:20px;bottom:20px;z-index:2147483000}' +
  'button{all:unset;padding:14px;border-radius:50%;background:#2457c5;cursor:pointer}svg{display:block}' +
  'button:focus-visible{outline:3px solid #f59e0b}.offline{background:#555}' +
  'span{position:absolute;top:-4px;right:-4px;padding:0 6px;border-radius:9px;background:#c81e1e;color:#fff;font:700 12px/18px sans-serif}';

/** The frame's place, added by the embed script. Below 480 px the open chat fills the screen (phones down to
 * 320 px wide) and the launcher steps aside: the frame has its own minimize button. */
export const FRAME_CSS =
  'iframe{position:absolute;right:0;bottom:68px;width:370px;height:min(600px,100vh - 110px);border:0;border-radius:12px;box-shadow:0 4px 24px #0005}' +
  '@media(max-width:480px){.o iframe{position:fixed;inset:0;width:100%;height:100%;border-radius:0}.o button{display:none}}';

/** Mounts the launcher button (its unread badge hidden) in a shadow root; in the loader. */
export function mountLauncher(doc: Document, toggle: () => void): ShadowRoot {
  const host = doc.createElement('svc-widget');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML =
    `<style>${CSS}</style><div class=w><button aria-label="Open chat" aria-expanded=false>` +
    '<svg width=28 viewBox="0 0 24 24" fill=#fff><path d="M3 4h18v13H9l-5 4v-4H3z"/></svg><span hidden></span></button></div>';
  root.querySelector('button')!.onclick = toggle;
  (doc.body ?? doc.documentElement).append(host);
  return root;
}

/** Shows the window state, the unread count and the chat mode; in the embed script. */
export function paintLauncher(root: ShadowRoot, { view, unread, status }: FrameState): void {
  const open = view !== 'closed';
  const button = root.querySelector('button')!;
  const badge = root.querySelector('span')!;
  const frame = root.querySelector('iframe');
  root.querySelector('div')!.className = open ? 'w o' : 'w';
  if (frame) frame.hidden = !open;
  button.className = status;
  button.ariaExpanded = String(open);
  button.ariaLabel = open ? 'Minimize chat' : unread ? `Open chat, ${unread} unread` : 'Open chat';
  badge.hidden = !unread || open;
  badge.textContent = String(unread);
}
