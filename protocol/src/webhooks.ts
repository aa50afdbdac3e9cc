import { z } from 'zod';
import type { DepartmentRef } from './departments.ts';
import type { GeoIp } from './geoip.ts';
import type { CallStatus, CallType } from './calls.ts';
import { isHttpUrl } from './url.ts';

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
  geoip: GeoIp;
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
  /** With user_token: whether it came signed by the site's server (verified visitors). */
  user_token_verified?: boolean;
  /** The chat's department (spec 6.2), when it has one; never on offline_message. */
  department?: DepartmentRef;
}

export type WebhookPayload =
  | (WebhookCommon & { event_name: 'offline_message'; offline_message_id: string; message: string; department?: never })
  | (WebhookCommon & { event_name: 'chat_accepted'; chat_id: number; agent: WebhookAgent })
  | (WebhookCommon & { event_name: 'chat_assigned'; chat_id: number; agent: WebhookAgent; assign_to: string })
  | (WebhookCommon & {
      event_name: 'chat_finished';
      chat_id: number;
      agents: WebhookAgent[];
      chat: { messages: WebhookLogMessage[]; rate: 'positive' | 'negative' | null; blacklisted: boolean };
    })
  | (WebhookCommon & { event_name: 'chat_updated'; chat_id: number; agent: WebhookAgent | null })
  | (WebhookCommon & { event_name: 'call_event'; chat_id?: number; agent: WebhookAgent | null; call: WebhookCall });

/** spec 2.3 call: `reason` only on error, `record_url` only once ended and known. */
export interface WebhookCall {
  type: CallType;
  phone: string;
  status: CallStatus;
  reason?: string;
  record_url?: string;
}

const text = (max: number) =>
  z
    .unknown()
    .transform((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : undefined))
    .optional();
const httpLink = z
  .unknown()
  .transform((v) => (typeof v === 'string' && isHttpUrl(v.trim()) ? v.trim() : undefined))
  .optional();

/**
 * The owner's answer to chat_accepted (spec 6.2), read liberally: broken optional parts are dropped. Only a
 * `result` of ok lets the rest reach the agent.
 */
export const chatAcceptedAnswerSchema = z.object({
  result: z.string(),
  custom_data: z
    .array(z.object({ title: text(200), content: text(2000) }))
    .max(50)
    .optional()
    .catch(undefined),
  contact_info: z
    .object({ name: text(200), phone: text(100), email: text(320) })
    .optional()
    .catch(undefined),
  enable_assign: z.boolean().optional().catch(undefined),
  crm_link: httpLink,
  page: z
    .object({ url: httpLink, title: text(500) })
    .optional()
    .catch(undefined),
});

/** What the owner's server said about a chat (chat_accepted), as agents see it. */
export interface CrmView {
  custom_data: { title?: string; content?: string }[];
  /** Show a button that binds the visitor to the CRM card (sends chat_assigned). */
  enable_assign: boolean;
  crm_link: string | null;
  page: { url?: string; title?: string } | null;
  /** Set once the agent bound the chat: the CRM link sent as `assign_to`. */
  assigned_to: string | null;
}
