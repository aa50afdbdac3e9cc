import type { TriggerRule } from '@svc/protocol';
import type { WidgetHost } from './widget-host-api.ts';
import type { FireCallback } from '../page-api/callbacks.ts';
import type { BridgeMessage, FrameState, HostToFrame } from './messages.ts';

/**
 * What the loader hands to the embed script it loads on first need (set on that script element, read from
 * document.currentScript: no global). The loader stays the page-facing side (svc_api, its answers, the page
 * callbacks); the embed script is the frame-facing side (the frame, its channel, painting the launcher).
 */
export interface Shell {
  widgetId: string;
  /** The launcher's shadow root: the embed script puts the frame in it and paints it. */
  root: ShadowRoot;
  /** The latest page data and view action; replayed to each fresh frame. */
  latest: Partial<HostToFrame>;
  /** The channel's default trigger rules; `latest.rules` replaces them when the page set its own. */
  rules: TriggerRule[];
  /** The triggers script acts through the same host as svc_api. */
  host: WidgetHost;
  /** The frame reported its state: the loader answers the page API from it from now on. */
  report(state: FrameState): void;
  fire: FireCallback;
  /** Installed by the embed script: forwards one message to the frame. */
  send?: (message: BridgeMessage<HostToFrame>) => void;
}

export type ShellScript = HTMLScriptElement & { svcShell?: Shell };

/** The widget's keys in the site's storage: `svc_widget:<id>` flags "load the frame at once" (a conversation
 * goes on), `svc_widget:<id>:<saved key>` holds what the frame saves (messages.ts Saved). */
export const storageKey = (widgetId: string, name?: string) => `svc_widget:${widgetId}${name ? `:${name}` : ''}`;
