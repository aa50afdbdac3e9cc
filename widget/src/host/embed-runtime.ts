import type { BridgeMessage, FrameInit, FrameToHost, HostToFrame, SavedKey } from '../bridge/messages.ts';
import { storageKey, type Shell } from '../bridge/shell.ts';
import { pageEventType } from '../page-api/callbacks.ts';
import { adoptCss, FRAME_CSS, paintLauncher } from './launcher.ts';
import { watchPageViews } from './page-views.ts';

const SAVED_KEYS: SavedKey[] = ['visitor', 'outbox', 'view'];

/**
 * The frame-facing side of the widget on the page: creates the chat frame in the launcher's shadow root, hands
 * it a private MessageChannel (the port is posted to the frame's own origin only), relays the page's calls to
 * it, shows what it reports, and keeps what it saves in the site's storage (bridge/messages.ts Saved). The
 * frame decides the window state and which page callbacks fire.
 */
export function runEmbed(doc: Document, shell: Shell, frameUrl: string): void {
  const frameOrigin = new URL(frameUrl).origin;
  // The visitor is shared by the site's tabs; unsent messages and the open window belong to this tab.
  const storageOf = (key: SavedKey | 'preload') => (key === 'visitor' || key === 'preload' ? localStorage : sessionStorage);
  const keyOf = (key: SavedKey | 'preload') => storageKey(shell.widgetId, key === 'preload' ? undefined : key);
  const save = (key: SavedKey | 'preload', value: string | null) => {
    try {
      if (value === null) storageOf(key).removeItem(keyOf(key));
      else storageOf(key).setItem(keyOf(key), value);
    } catch {
      // Storage blocked by the visitor's browser: the widget works on, and forgets on the next page.
    }
  };
  const load = (key: SavedKey) => {
    try {
      return storageOf(key).getItem(keyOf(key));
    } catch {
      return null;
    }
  };

  const frame = doc.createElement('iframe');
  frame.title = 'Chat window';
  frame.hidden = true;
  frame.src = frameUrl;
  let open = false;

  function receive(message: BridgeMessage<FrameToHost>) {
    if (message.type === 'fire') return shell.fire(message.data.name, ...(message.data.args as []));
    if (message.type === 'event')
      return void dispatchEvent(new CustomEvent(pageEventType(message.data.name), { detail: message.data.data }));
    if (message.type === 'save') return save(message.data.key, message.data.value);
    const state = message.data;
    const hadFocus = shell.root.activeElement === frame;
    const wasOpen = open;
    open = state.view !== 'closed';
    shell.report(state);
    paintLauncher(shell.root, state);
    // Keyboard focus follows the window: into the chat when it opens, back to the launcher when it closes.
    if (open && !wasOpen) frame.focus();
    if (!open && hadFocus) shell.root.querySelector('button')!.focus();
    save('preload', state.preload ? '1' : null);
  }

  // Each (re)load of the frame gets a fresh channel and the latest of everything the page said.
  frame.onload = () => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event: MessageEvent<BridgeMessage<FrameToHost>>) => receive(event.data);
    const saved: FrameInit['saved'] = {};
    for (const key of SAVED_KEYS) saved[key] = load(key) ?? undefined;
    const page = { url: doc.URL, title: doc.title, referrer: doc.referrer };
    const init: FrameInit = {
      type: 'svc:init',
      widget_id: shell.widgetId,
      status: shell.host.state.status,
      callback: shell.host.state.callback,
      saved,
      page,
    };
    frame.contentWindow?.postMessage(init, frameOrigin, [channel.port2]);
    shell.send = (message) => channel.port1.postMessage(message);
    for (const [type, data] of Object.entries(shell.latest)) shell.send({ type, data } as BridgeMessage<HostToFrame>);
  };
  // Another tab of the site saved the visitor token: the frame may follow it.
  addEventListener('storage', (event) => {
    if (event.key === keyOf('visitor')) shell.send?.({ type: 'saved', data: { key: 'visitor', value: event.newValue } });
  });

  // A fresh frame reads the page from its init; a frame already running hears each move.
  watchPageViews(window, doc, (page) => shell.send?.({ type: 'page', data: page }));

  adoptCss(shell.root, FRAME_CSS);
  shell.root.querySelector('div')!.prepend(frame);
}
