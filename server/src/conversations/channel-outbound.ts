import type { ChannelKind } from '@svc/protocol';
import type { AgentRecord, ChannelRecord, ChatRecord, NewDelivery } from '../store/records.ts';

export interface OutboundMessage {
  id: number;
  type: string;
  text: string | null;
  media: Record<string, unknown>;
}

/**
 * How a kind of channel carries agent messages and typing to the customer's side. A channel that needs an
 * outbound HTTP request returns the delivery to enqueue with the message; one that pushes over a socket
 * returns null and listens to the domain events instead.
 */
export interface ChannelOutbound {
  messageDelivery(input: { channel: ChannelRecord; chat: ChatRecord; agent: AgentRecord; message: OutboundMessage }): NewDelivery | null;
  typingDelivery(input: { channel: ChannelRecord; chat: ChatRecord; agent: AgentRecord; state: 'start' | 'stop' }): NewDelivery | null;
}

export type ChannelOutbounds = Record<ChannelKind, ChannelOutbound>;
