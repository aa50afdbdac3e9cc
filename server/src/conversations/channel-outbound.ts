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
/** Who a message is from, as the customer's side shows it: an agent, or the bot. */
export interface OutboundSender {
  name: string;
  photo: string | null;
}

export interface ChannelOutbound {
  /** The delivery to enqueue; null when the channel pushes it itself; `notSent` when the channel cannot show it. */
  messageDelivery(input: {
    channel: ChannelRecord;
    chat: ChatRecord;
    sender: OutboundSender;
    message: OutboundMessage;
  }): NewDelivery | null | { notSent: string };
  typingDelivery(input: { channel: ChannelRecord; chat: ChatRecord; agent: AgentRecord; state: 'start' | 'stop' }): NewDelivery | null;
}

export type ChannelOutbounds = Record<ChannelKind, ChannelOutbound>;
