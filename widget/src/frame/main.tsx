/**
 * The chat frame's entry point, the only file of the frame that touches window when it loads. The frame does
 * nothing until the loader's embed script hands it the private channel (bridge/messages.ts): the port comes
 * with the first message from the parent window, posted to this frame's own origin.
 */
import type { FrameInit } from '../bridge/messages.ts';
import '../ui/styles.css';
import { startFrame } from './start-frame.tsx';

// The widget this frame was served for (its URL's `w`): the service applied that channel's allowed sites
// (frame-ancestors) to it, so the frame serves no other.
const widgetId = new URLSearchParams(location.search).get('w');

function onInit(event: MessageEvent<FrameInit>) {
  const port = event.ports[0];
  if (event.source !== window.parent || event.data?.type !== 'svc:init' || !port) return;
  if (event.data.widget_id !== widgetId) return;
  window.removeEventListener('message', onInit);
  startFrame(event.data, port, window, document.getElementById('app')!);
}

window.addEventListener('message', onInit);
