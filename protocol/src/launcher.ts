/**
 * The launcher button's markup, sent with the widget settings (WidgetSettings.launcher) and put in the
 * loader's shadow root as it is. Sent rather than built into the loader: the loader stays within its 2 KB,
 * and the launcher's look can change on the server without a new loader. The embed script paints state on
 * it (widget/src/host/launcher.ts), so the structure is fixed: div.w > button > (svg, span). It is a constant:
 * no name or text of any party is ever put in it, since the loader sets it as HTML.
 */
const CSS =
  '.w{position:fixed;right:20px;bottom:20px;z-index:2147483000}' +
  'button{all:unset;padding:14px;border-radius:50%;background:#2457c5;cursor:pointer}svg{display:block}' +
  'button:focus-visible{outline:3px solid #f59e0b}.offline{background:#555}' +
  'span{position:absolute;top:-4px;right:-4px;padding:0 6px;border-radius:9px;background:#c81e1e;color:#fff;font:700 12px/18px sans-serif}';

/** `hidden`: the channel's business hours hide the widget now; svc_api keeps working. */
export const launcherMarkup = (hidden = false) =>
  `<style>${CSS}</style><div class=w${hidden ? ' hidden' : ''}><button aria-label="Open chat" aria-expanded=false>` +
  '<svg width=28 viewBox="0 0 24 24" fill=#fff><path d="M3 4h18v13H9l-5 4v-4H3z"/></svg><span hidden></span></button></div>';
