import type { ChatApiOutbound } from '@svc/protocol';
import type { ChannelOutbound } from '../../conversations/channel-outbound.ts';
import type { ChannelRecord, NewDelivery } from '../../store/records.ts';

export const CHAT_API_DELIVERY = 'chat_api';

/** spec 4.1: replies go to `<customer_endpoint>/<CHANNEL_PUBLIC_ID>`. */
export function integratorUrl(channel: ChannelRecord): string {
  return `${(channel.webhookUrl ?? '').replace(/\/+$/, '')}/${channel.publicId}`;
}

/** How a Chat API channel carries agent messages and typing: an outbox row per request (spec 2.1). */
export function chatApiOutbound(options: { attempts: number }): ChannelOutbound {
  const delivery = (channel: ChannelRecord, payload: ChatApiOutbound, maxAttempts: number): NewDelivery => ({
    kind: CHAT_API_DELIVERY,
    channelId: channel.id,
    url: integratorUrl(channel),
    payload,
    maxAttempts,
  });
  return {
    messageDelivery({ channel, chat, sender, message }) {
      const rich = message.type === 'markdown' || message.type === 'buttons';
      // spec 2.2: a channel that cannot show MARKDOWN or BUTTONS gets the plain-text fallback, or nothing.
      if (rich && message.text === null)
        return { notSent: `Not sent: a Chat API app cannot show ${message.type.toUpperCase()} without a text fallback` };
      const body = rich
        ? { type: 'text', id: String(message.id), text: message.text! }
        : { ...message.media, type: message.type, id: String(message.id), ...(message.text !== null ? { text: message.text } : {}) };
      const payload: ChatApiOutbound = {
        sender: { name: sender.name, ...(sender.photo ? { photo: sender.photo } : {}) },
        recipient: { id: chat.client.externalId },
        message: body,
      };
      return delivery(channel, payload, options.attempts);
    },
    typingDelivery({ channel, chat, agent, state }) {
      const payload: ChatApiOutbound = {
        sender: { name: agent.name, ...(agent.photo ? { photo: agent.photo } : {}) },
        recipient: { id: chat.client.externalId },
        message: { type: state === 'start' ? 'typein' : 'typeout' },
      };
      // A typing change is stale by the time a retry would land: one attempt.
      return delivery(channel, payload, 1);
    },
  };
}
