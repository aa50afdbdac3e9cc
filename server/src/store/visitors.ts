import type { ClientRecord, MessageRecord, VisitorPatch } from './records.ts';

export const patchColumns: Record<keyof VisitorPatch, { column: string; encode?: (v: unknown) => unknown }> = {
  name: { column: 'name' },
  phone: { column: 'phone' },
  email: { column: 'email' },
  description: { column: 'description' },
  customData: { column: 'custom_data_json', encode: (v) => JSON.stringify(v) },
  userToken: { column: 'user_token' },
  userVerified: { column: 'user_verified', encode: (v) => (v ? 1 : 0) },
  url: { column: 'url' },
  pageTitle: { column: 'page_title' },
  referrer: { column: 'referrer' },
  utm: { column: 'utm_json', encode: (v) => (v === null ? null : JSON.stringify(v)) },
  userAgent: { column: 'user_agent' },
  ip: { column: 'ip' },
  invite: { column: 'invite' },
  geoip: { column: 'geoip_json', encode: (v) => JSON.stringify(v) },
};

export interface VisitorsRepo {
  /** A new visitor with the next visitor number (sequential across the installation, spec 4.4). */
  create(channelId: number, visitorId: string, tokenHash: string): Promise<ClientRecord>;
  findByToken(channelId: number, tokenHash: string): Promise<ClientRecord | undefined>;
  findById(id: number): Promise<ClientRecord | undefined>;
  update(id: number, patch: VisitorPatch): Promise<ClientRecord>;
  /** The department the visitor's next chat opens in (null: none). False when there is no such visitor. */
  setPendingDepartment(clientId: number, departmentId: number | null): Promise<boolean>;
  liveChat(clientId: number): Promise<{ id: number; state: 'open' | 'bot'; assigned_agent_id: number | null } | null>;
  /** The visitor's newest chat, live or closed: the one a rating is for. */
  latestChatId(clientId: number): Promise<number | null>;
  /** The message a visitor sent with this client_msg_id, to answer a repeated send. */
  messageByClientMsgId(clientId: number, clientMsgId: string): Promise<MessageRecord | undefined>;
}
