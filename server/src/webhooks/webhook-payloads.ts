import type { WebhookAgent, WebhookCommon, WebhookEventName, WebhookLogMessage } from '@svc/protocol';
import type { AgentRecord, ChannelRecord, ChatRecord, ClientRecord, MessageRecord } from '../store/records.ts';
import type { Store } from '../store/store.ts';

const ANONYMOUS: ClientRecord = {
  id: 0,
  channelId: 0,
  externalKey: '',
  externalId: '',
  name: null,
  phone: null,
  email: null,
  photo: null,
  url: null,
  invite: null,
  visitorNumber: null,
  description: null,
  customData: [],
  userToken: null,
  userVerified: false,
  pageTitle: null,
  referrer: null,
  utm: null,
  userAgent: null,
  ip: null,
  geoip: {},
  pendingDepartmentId: null,
  blacklisted: false,
};

/** spec 2.3 agent. */
export function webhookAgent(a: AgentRecord): WebhookAgent {
  return { id: a.id, name: a.name, email: a.email };
}

/** The fields every server webhook about a chat carries (spec 6.2, 2.3): its visitor's, and its department
 * when it has one. */
export async function commonFields(
  store: Store,
  channel: ChannelRecord,
  chat: ChatRecord,
  eventName: WebhookEventName,
  eventId: string,
): Promise<WebhookCommon> {
  const fields = await visitorFields(store, channel, chat.client, eventName, eventId);
  return chat.department ? { ...fields, department: { id: chat.department.id, name: chat.department.name } } : fields;
}

/** The same for a visitor without a chat (offline messages, which never carry a department); an unknown
 * visitor gets empty fields. */
export async function visitorFields(
  store: Store,
  channel: ChannelRecord,
  client: ClientRecord | null,
  eventName: WebhookEventName,
  eventId: string,
): Promise<Omit<WebhookCommon, 'department'>> {
  const v: ClientRecord = client ?? ANONYMOUS;
  const utm = v.utm ?? {};
  return {
    event_name: eventName,
    event_id: eventId,
    widget_id: channel.publicId,
    visitor: {
      ...(v.name !== null ? { name: v.name } : {}),
      ...(v.email !== null ? { email: v.email } : {}),
      ...(v.phone !== null ? { phone: v.phone } : {}),
      number: v.visitorNumber === null ? '' : String(v.visitorNumber),
      description: v.description ?? '',
      chats_count: client ? await store.chats.countByClient(client.id) : 0,
    },
    session: {
      geoip: v.geoip,
      // spec 2.3: the deprecated form, key=value pairs joined by a vertical bar.
      utm: Object.entries(utm)
        .map(([k, val]) => `${k}=${val}`)
        .join('|'),
      utm_json: utm,
      ip_addr: v.ip ?? '',
      user_agent: v.userAgent ?? '',
    },
    page: { url: v.url ?? '', ...(v.pageTitle !== null ? { title: v.pageTitle } : {}) },
    ...(v.userToken !== null ? { user_token: v.userToken, user_token_verified: v.userVerified } : {}),
  };
}

const logTypes = { client: 'visitor', agent: 'agent', bot: 'bot' } as const;

/** spec 2.3 chat log: every message but system notes, with its text (or file URL). */
export function chatLog(messages: MessageRecord[]): WebhookLogMessage[] {
  return messages
    .filter((m) => m.author !== 'system')
    .map((m) => ({
      timestamp: Math.floor(m.createdAt / 1000),
      type: logTypes[m.author as keyof typeof logTypes],
      ...(m.agentId !== null ? { agent_id: m.agentId } : {}),
      message: m.text ?? m.media.file ?? m.media.content ?? '',
    }));
}
