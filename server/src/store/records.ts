import type {
  CallbackSettings,
  ChannelKind,
  CrmView,
  CustomDataField,
  DepartmentRef,
  GeoIp,
  WebhookEventName,
  ChatState,
  DeliveryState,
  MediaFields,
  MessageAuthor,
  MessageType,
  PresenceStatus,
} from '@svc/protocol';

/** Rows as the rest of the server sees them. Only store/ knows the columns behind them. */
export interface AgentRecord {
  id: number;
  name: string;
  email: string;
  photo: string | null;
  status: PresenceStatus;
  role: 'admin' | 'agent';
  active: boolean;
  createdAt: number;
}

export interface ChannelRecord {
  id: number;
  publicId: string;
  kind: ChannelKind;
  name: string;
  randomString: string;
  webhookUrl: string | null;
  chunked: boolean;
  safeDomains: string[];
  /** Server webhooks sent to webhookUrl (widget channels). */
  webhookEvents: WebhookEventName[];
  bot: { providerId: string; providerRowId: number; token: string } | null;
  agentIds: number[];
  /** Standard Webhooks signing secret (`whsec_...`) of the channel's outbound requests. */
  signingSecret: string;
  createdAt: number;
  /** Callback calls of a widget channel; null when never set (calls disabled). */
  callback: CallbackSettings | null;
  /** How long an open or bot chat may go without a message before the service closes it; null: never. */
  autoCloseMs: number | null;
  /** Widget: agents see the visitor's draft as they type (the widget tells the visitor). */
  typingPreview: boolean;
  /** Closed chats older than this (ms) are erased; null keeps them forever. */
  retentionMs: number | null;
}

export interface BotProviderRecord {
  id: number;
  providerId: string;
  name: string;
  endpoint: string;
  auth: { token_url: string; client_id: string; client_secret: string } | null;
  createdAt: number;
}

export interface ClientRecord {
  id: number;
  channelId: number;
  /** String form of the customer's id: 42 and "42" are one customer. */
  externalKey: string;
  /** The id exactly as it first came in (an integer stays an integer). */
  externalId: string | number;
  name: string | null;
  phone: string | null;
  email: string | null;
  photo: string | null;
  url: string | null;
  invite: string | null;
  visitorNumber: number | null;
  description: string | null;
  customData: CustomDataField[];
  userToken: string | null;
  /** The user token came signed with the channel's identity secret. */
  userVerified: boolean;
  pageTitle: string | null;
  referrer: string | null;
  utm: Record<string, string> | null;
  userAgent: string | null;
  ip: string | null;
  /** spec 2.3 session.geoip of `ip`; `{}` when unknown. */
  geoip: GeoIp;
  /** The department the client's next chat opens in, if one was asked for. */
  pendingDepartmentId: number | null;
  /** Blocked by an agent: the client's new messages are refused. */
  blacklisted: boolean;
}

export type ClientProfile = Partial<Pick<ClientRecord, 'name' | 'phone' | 'email' | 'photo' | 'url' | 'invite'>>;

/** What a widget visitor's page may change about the visitor. */
export type VisitorPatch = Partial<
  Pick<
    ClientRecord,
    | 'name'
    | 'phone'
    | 'email'
    | 'description'
    | 'customData'
    | 'userToken'
    | 'userVerified'
    | 'url'
    | 'pageTitle'
    | 'referrer'
    | 'utm'
    | 'userAgent'
    | 'ip'
    | 'invite'
    | 'geoip'
  >
>;

export interface MessageRecord {
  id: number;
  chatId: number;
  author: MessageAuthor;
  agentId: number | null;
  agentName: string | null;
  type: MessageType;
  text: string | null;
  media: MediaFields;
  externalId: string | null;
  delivery: DeliveryState;
  error: string | null;
  createdAt: number;
  /** A private note: for the channel's agents only. */
  internal: boolean;
}

export interface ChatRecord {
  id: number;
  channelId: number;
  channelKind: ChannelKind;
  channelName: string;
  channelSafeDomains: string[];
  state: ChatState;
  assignedAgentId: number | null;
  blacklisted: boolean;
  createdAt: number;
  closedAt: number | null;
  /** The provider whose bot saw the chat first, if any. */
  botProviderId: number | null;
  agentJoined: boolean;
  crm: CrmView | null;
  /** The visitor's rating of the chat. */
  rate: 'positive' | 'negative' | null;
  department: DepartmentRef | null;
  client: ClientRecord;
  lastMessage: MessageRecord | null;
}

export interface DeliveryRecord {
  id: number;
  kind: string;
  channelId: number;
  chatId: number | null;
  messageId: number | null;
  orderingKey: string;
  /** Stable across attempts and replays: the receiver's de-duplication key (webhook-id). */
  eventId: string;
  url: string;
  payload: unknown;
  state: DeliveryState;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  lastStatus: number | null;
  createdAt: number;
  /** The failed delivery this one replays (same event id), if it is a replay. */
  replayOf: number | null;
}

/** A delivery to enqueue in the same unit of work as the row that caused it. */
export interface NewDelivery {
  kind: string;
  channelId: number;
  url: string;
  payload: unknown;
  maxAttempts: number;
  /** Rows with one key are sent one at a time, in id order. Defaults to the chat. */
  orderingKey?: string;
  /** Defaults to a new random id. */
  eventId?: string;
  /** Set on a replay: the failed delivery it sends again. */
  replayOf?: number;
  /** Held back until then (epoch ms); due at once when unset. */
  dueAt?: number;
}
