/** Server webhooks of a widget channel (spec 4.3, 6.2): POSTed to the site owner's URL. */
export const webhookEventNames = [
  'chat_accepted',
  'chat_assigned',
  'chat_finished',
  'chat_updated',
  'offline_message',
  'call_event',
] as const;
export type WebhookEventName = (typeof webhookEventNames)[number];

/** spec 2.3 visitor. */
export interface WebhookVisitor {
  name?: string;
  email?: string;
  phone?: string;
  number: string;
  description: string;
  chats_count: number;
}

/** spec 2.3 agent. */
export interface WebhookAgent {
  id: number;
  name: string;
  email: string;
  phone?: string;
}

/** spec 2.3 session. */
export interface WebhookSession {
  geoip: Record<string, string>;
  /** Deprecated by the spec in favour of utm_json: `key=value` pairs joined by `|`. */
  utm: string;
  utm_json: { source?: string; medium?: string; campaign?: string; content?: string; term?: string };
  ip_addr: string;
  user_agent: string;
}

/** spec 2.3 chat log message; `message` is the text (or the file URL of a media message). */
export interface WebhookLogMessage {
  timestamp: number;
  type: 'visitor' | 'agent' | 'bot';
  agent_id?: number;
  message: string;
}

/** Fields every event carries (spec 6.2), plus the setUserToken id as `user_token` when one was set. */
export interface WebhookCommon {
  event_name: WebhookEventName;
  /** Unique per event, the same on every retry (also in the `webhook-id` header). */
  event_id: string;
  widget_id: string;
  visitor: WebhookVisitor;
  session: WebhookSession;
  page: { url: string; title?: string };
  user_token?: string;
}

export type WebhookPayload =
  | (WebhookCommon & {
      event_name: 'chat_finished';
      chat_id: number;
      agents: WebhookAgent[];
      chat: { messages: WebhookLogMessage[]; rate: 'positive' | 'negative' | null; blacklisted: boolean };
    })
  | (WebhookCommon & { event_name: 'chat_updated'; chat_id: number; agent: WebhookAgent | null });
