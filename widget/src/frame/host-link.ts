import type { BridgeMessage, FrameToHost, HostToFrame } from '../bridge/messages.ts';

export type HostHandlers = { [K in keyof HostToFrame]: (data: HostToFrame[K]) => void };
export type SendToHost = <K extends keyof FrameToHost>(type: K, data: FrameToHost[K]) => void;

/** The frame's end of the private channel the loader handed over (bridge/messages.ts). */
export function linkHost(port: MessagePort, handlers: HostHandlers): SendToHost {
  port.onmessage = ({ data }: MessageEvent<BridgeMessage<HostToFrame>>) =>
    (handlers[data.type] as ((value: HostToFrame[keyof HostToFrame]) => void) | undefined)?.(data.data);
  return (type, data) => port.postMessage({ type, data });
}
