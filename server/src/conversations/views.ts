import type { AgentView, ChatView, ClientView, MessageView, OfflineMessageView } from '@svc/protocol';
import { isSafeLink } from '../lib/safe-link.ts';
import type { OfflineMessageRecord } from '../store/offline-messages.ts';
import type { AgentRecord, ChatRecord, ClientRecord, MessageRecord } from '../store/records.ts';

/** Records to the wire shapes of the agent API and the agents' socket. */
export const iso = (ms: number) => new Date(ms).toISOString();

export function agentView(a: AgentRecord): AgentView {
  return { id: a.id, name: a.name, email: a.email, photo: a.photo, status: a.status, role: a.role, active: a.active };
}

/** The client as agents see it; custom data links outside the channel's safe domains are dropped. */
export function clientView(c: ClientRecord, safeDomains: string[]): ClientView {
  return {
    id: c.externalKey,
    name: c.name,
    phone: c.phone,
    email: c.email,
    photo: c.photo,
    url: c.url,
    invite: c.invite,
    display_name: c.name ?? c.phone ?? c.email ?? 'Anonymous',
    visitor_number: c.visitorNumber,
    description: c.description,
    custom_data: c.customData.map(({ link, ...field }) =>
      link !== undefined && isSafeLink(link, safeDomains) ? { ...field, link } : field,
    ),
    user_token: c.userToken,
    user_verified: c.userVerified,
    page_title: c.pageTitle,
    referrer: c.referrer,
    utm: c.utm,
    user_agent: c.userAgent,
    ip: c.ip,
    geoip: c.geoip,
    blacklisted: c.blacklisted,
  };
}

export function messageView(m: MessageRecord): MessageView {
  return {
    ...m.media,
    id: m.id,
    chat_id: m.chatId,
    author: m.author,
    ...(m.agentId !== null ? { agent_id: m.agentId } : {}),
    ...(m.agentName !== null ? { agent_name: m.agentName } : {}),
    type: m.type,
    ...(m.text !== null ? { text: m.text } : {}),
    created_at: iso(m.createdAt),
    delivery: m.delivery,
    ...(m.error !== null ? { error: m.error } : {}),
    ...(m.internal ? { internal: true as const } : {}),
  };
}

export function chatView(c: ChatRecord): ChatView {
  return {
    id: c.id,
    channel_id: c.channelId,
    channel_kind: c.channelKind,
    channel_name: c.channelName,
    state: c.state,
    client: clientView(c.client, c.channelSafeDomains),
    assigned_agent_id: c.assignedAgentId,
    created_at: iso(c.createdAt),
    closed_at: c.closedAt === null ? null : iso(c.closedAt),
    crm: c.crm,
    rate: c.rate,
    department: c.department,
    last_message: c.lastMessage && messageView(c.lastMessage),
  };
}

export function offlineMessageView(m: OfflineMessageRecord): OfflineMessageView {
  return {
    id: m.id,
    channel_id: m.channelId,
    visitor_id: m.visitorKey,
    name: m.name,
    email: m.email,
    phone: m.phone,
    description: m.description,
    message: m.message,
    created_at: iso(m.createdAt),
  };
}
