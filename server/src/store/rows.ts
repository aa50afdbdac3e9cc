import type { CustomDataField, DeliveryState, GeoIp, MediaFields, MessageAuthor, MessageType } from '@svc/protocol';
import type { ClientRecord, MessageRecord } from './records.ts';

/** Row shapes and mappers shared by the chat and message repositories. */
export interface MessageRow {
  id: number;
  chat_id: number;
  author: MessageAuthor;
  agent_id: number | null;
  type: MessageType;
  text: string | null;
  media_json: string | null;
  external_id: string | null;
  delivery: DeliveryState;
  error: string | null;
  created_at: number;
  /** 1 for a private note; absent in a chat's embedded last message, which is never a note. */
  internal?: number;
  /** Present when the query joined the author's name. */
  agent_name?: string | null;
}

/** Messages with the name of the agent who wrote each. */
export const messageSelect = 'SELECT m.*, a.name AS agent_name FROM messages m LEFT JOIN agents a ON a.id = m.agent_id';

export const toMessage = (r: MessageRow): MessageRecord => ({
  id: r.id,
  chatId: r.chat_id,
  author: r.author,
  agentId: r.agent_id,
  agentName: r.agent_name ?? null,
  type: r.type,
  text: r.text,
  media: r.media_json === null ? {} : (JSON.parse(r.media_json) as MediaFields),
  externalId: r.external_id,
  delivery: r.delivery,
  error: r.error,
  createdAt: r.created_at,
  internal: r.internal === 1,
});

export interface ClientRow {
  id: number;
  channel_id: number;
  external_key: string;
  external_id_json: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  photo: string | null;
  url: string | null;
  invite: string | null;
  visitor_number: number | null;
  description: string | null;
  custom_data_json: string;
  user_token: string | null;
  user_verified: number;
  page_title: string | null;
  referrer: string | null;
  utm_json: string | null;
  user_agent: string | null;
  ip: string | null;
  geoip_json: string | null;
  pending_department_id: number | null;
  blacklisted: number;
}

/** Columns of a client row, for queries that embed it as JSON. */
export const clientColumns = [
  'id',
  'channel_id',
  'external_key',
  'external_id_json',
  'name',
  'phone',
  'email',
  'photo',
  'url',
  'invite',
  'visitor_number',
  'description',
  'custom_data_json',
  'user_token',
  'user_verified',
  'page_title',
  'referrer',
  'utm_json',
  'user_agent',
  'ip',
  'geoip_json',
  'pending_department_id',
  'blacklisted',
] as const;

export const toClient = (r: ClientRow): ClientRecord => ({
  id: r.id,
  channelId: r.channel_id,
  externalKey: r.external_key,
  externalId: JSON.parse(r.external_id_json) as string | number,
  name: r.name,
  phone: r.phone,
  email: r.email,
  photo: r.photo,
  url: r.url,
  invite: r.invite,
  visitorNumber: r.visitor_number,
  description: r.description,
  customData: JSON.parse(r.custom_data_json) as CustomDataField[],
  userToken: r.user_token,
  userVerified: r.user_verified === 1,
  pageTitle: r.page_title,
  referrer: r.referrer,
  utm: r.utm_json === null ? null : (JSON.parse(r.utm_json) as Record<string, string>),
  userAgent: r.user_agent,
  ip: r.ip,
  geoip: r.geoip_json === null ? {} : (JSON.parse(r.geoip_json) as GeoIp),
  pendingDepartmentId: r.pending_department_id,
  blacklisted: r.blacklisted === 1,
});
