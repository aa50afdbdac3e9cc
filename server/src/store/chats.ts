import type { ChatState, CrmView, DepartmentRef, MediaFields, MessageType } from '@svc/protocol';
import type { ChatRecord, ClientProfile, ClientRecord, MessageRecord, NewDelivery } from './records.ts';
import { toClient, toMessage, type ClientRow, type MessageRow } from './rows.ts';

export interface ChatRow {
  id: number;
  channel_id: number;
  channel_kind: ChatRecord['channelKind'];
  channel_name: string;
  channel_safe_domains_json: string;
  state: ChatState;
  assigned_agent_id: number | null;
  blacklisted: number;
  created_at: number;
  closed_at: number | null;
  bot_provider_id: number | null;
  agent_joined: number;
  crm_json: string | null;
  rate: 'positive' | 'negative' | null;
  department_json: string | null;
  client_json: string;
  last_message_json: string | null;
}

/** The chat's own columns, which every query of a chat answers as they are. */
export type ChatOwnColumns = Omit<ChatRow, 'department_json' | 'client_json' | 'last_message_json'>;

/** A chat from its own columns and the records a query answered with it. */
export const toChatWith = (
  r: ChatOwnColumns,
  parts: { department: DepartmentRef | null; client: ClientRecord; lastMessage: MessageRecord | null },
): ChatRecord => ({
  id: r.id,
  channelId: r.channel_id,
  channelKind: r.channel_kind,
  channelName: r.channel_name,
  channelSafeDomains: JSON.parse(r.channel_safe_domains_json) as string[],
  state: r.state,
  assignedAgentId: r.assigned_agent_id,
  blacklisted: r.blacklisted === 1,
  createdAt: r.created_at,
  closedAt: r.closed_at,
  botProviderId: r.bot_provider_id,
  agentJoined: r.agent_joined === 1,
  crm: r.crm_json === null ? null : (JSON.parse(r.crm_json) as CrmView),
  rate: r.rate,
  ...parts,
});

export const toChat = (r: ChatRow): ChatRecord =>
  toChatWith(r, {
    department: r.department_json === null ? null : (JSON.parse(r.department_json) as DepartmentRef),
    client: toClient(JSON.parse(r.client_json) as ClientRow),
    lastMessage: r.last_message_json === null ? null : toMessage(JSON.parse(r.last_message_json) as MessageRow),
  });

export interface NewClientMessage {
  channelId: number;
  client: { key: string; id: string | number; profile: ClientProfile };
  /** The bot provider of the channel, when a bot sees new chats first (they open in state `bot`). */
  botProviderRowId: number | null;
  message: { type: MessageType; text: string | null; media: MediaFields; externalId: string | null };
  /** The integrator's Idempotency-Key: a repeat within 24 hours stores nothing and gets the first answer. */
  idempotencyKey?: string;
  /** The outbound request that forwards the message (to the chat's bot), written in the same unit of work
   * so an accepted message is never lost on its way. */
  forward?: (stored: { chat: ChatRecord; message: MessageRecord }) => NewDelivery | null;
}

export type ClientMessageResult =
  | { replayed: false; chat: ChatRecord; message: MessageRecord; chatCreated: boolean; clientChanged: boolean; forwarded: boolean }
  | { replayed: true; chatId: number; messageId: number };

/** The client was blacklisted by an agent; its messages are refused. */
export class ClientBlocked extends Error {
  constructor() {
    super('This customer was blocked by an agent');
  }
}

/**
 * The channel was deleted, or its bot attached or detached, since the caller read it (another node changed it
 * and the notice has not reached this one yet): nothing was written; read the channel again.
 */
export class ChannelChanged extends Error {
  constructor() {
    super('The channel changed since it was read');
  }
}

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface NewAgentMessage {
  chatId: number;
  /** The agent who wrote it; null for a bot or system message. */
  agentId: number | null;
  /** The agent's name, as the message shows it, when the caller has it at hand (else it is read with the write). */
  agentName?: string;
  author?: 'agent' | 'bot' | 'system';
  message: { type: MessageType; text: string | null; media: MediaFields };
  /** The outbound request that carries the message to the customer's side, if its channel needs one
   * (its payload is built with the new message id); `{ notSent }` when the channel cannot carry it. */
  delivery: (messageId: number) => NewDelivery | null | { notSent: string };
  /** AGENT_JOINED for the chat's bot, sent if this message makes the agent take the chat. */
  joined?: NewDelivery | null;
}

/**
 * Where a walk through an inbox stands. The order is the one of the moment the walk began (`asOf`, the newest
 * message id then): a chat that gets a message meanwhile keeps its place, so it is listed once, neither skipped
 * nor repeated. `lastMessageId` and `chatId` are the sort key and id of the last chat listed.
 */
export interface InboxPosition {
  asOf: number;
  lastMessageId: number;
  chatId: number;
}

export interface InboxPage {
  chats: ChatRecord[];
  /** Where the following page starts, null after the last. */
  next: InboxPosition | null;
  total: number;
}

/** Pass as `key` and `chatId` of the first page: before every chat. */
export const INBOX_START = Number.MAX_SAFE_INTEGER;

/** The channels whose chats an agent may see: those the agent is a member of and not deleted. */
export const visibleChannelsSql = (agentId: string) =>
  `SELECT ca.channel_id FROM channel_agents ca JOIN channels c ON c.id = ca.channel_id WHERE ca.agent_id = ${agentId} AND c.deleted_at IS NULL`;

/**
 * The ids and sort keys of one page of an agent's inbox (`sort_key DESC, id DESC`), in either dialect's
 * parameters. A chat's sort key is its newest message as of `asOf`: for the chats untouched since then it is
 * `last_message_id` (a range of the inbox order index), for the few that got a message meanwhile it is
 * looked up in `messages_by_chat`; chats opened after `asOf` are left out (they reach agents as live events).
 * `activity` is the table with each chat's `id`, `channel_id`, `state` and `last_message_id` and that index:
 * `chats`, or PostgreSQL's `chat_activity` (postgres/chat-activity.ts).
 */
export const inboxPageSql = (p: Record<'agentId' | 'state' | 'asOf' | 'key' | 'chatId' | 'limit', string>, activity = 'chats') => `
  WITH mine AS (${visibleChannelsSql(p.agentId)}),
  untouched AS (
    SELECT ch.id, COALESCE(ch.last_message_id, 0) AS sort_key FROM ${activity} ch
    WHERE ch.state = ${p.state} AND COALESCE(ch.last_message_id, 0) <= ${p.asOf}
      AND (COALESCE(ch.last_message_id, 0), ch.id) < (${p.key}, ${p.chatId})
      AND ch.channel_id IN (SELECT channel_id FROM mine)
    ORDER BY COALESCE(ch.last_message_id, 0) DESC, ch.id DESC LIMIT ${p.limit}
  ),
  touched AS (
    SELECT ch.id, (SELECT MAX(m.id) FROM messages m WHERE m.chat_id = ch.id AND m.id <= ${p.asOf}) AS sort_key FROM ${activity} ch
    WHERE ch.state = ${p.state} AND COALESCE(ch.last_message_id, 0) > ${p.asOf} AND ch.channel_id IN (SELECT channel_id FROM mine)
  )
  SELECT id, sort_key FROM untouched
  UNION ALL
  SELECT id, sort_key FROM touched WHERE (sort_key, id) < (${p.key}, ${p.chatId})
  ORDER BY sort_key DESC, id DESC LIMIT ${p.limit}`;

export const inboxCountSql = (agentId: string, state: string) => `
  SELECT COUNT(*) AS total FROM chats ch
  WHERE ch.state = ${state} AND ch.channel_id IN (${visibleChannelsSql(agentId)})`;

/** The page from the rows of `inboxPageSql` (asked for one more than `limit`) and the chats they name. */
export function inboxPage(
  rows: { id: number; sort_key: number }[],
  chats: ChatRecord[],
  limit: number,
  asOf: number,
  total: number,
): InboxPage {
  const byId = new Map(chats.map((c) => [c.id, c]));
  const listed = rows.slice(0, limit);
  const last = listed.at(-1);
  return {
    chats: listed.map((r) => byId.get(r.id)).filter((c) => c !== undefined),
    next: rows.length > limit && last ? { asOf, lastMessageId: Number(last.sort_key), chatId: Number(last.id) } : null,
    total,
  };
}

export const profileColumns = ['name', 'phone', 'email', 'photo', 'url', 'invite'] as const;

/** A message's media fields as stored (`messages.media_json`): none is NULL. */
export const mediaJson = (media: MediaFields) => (Object.keys(media).length === 0 ? null : JSON.stringify(media));

export function nullProfile(p: ClientProfile) {
  return Object.fromEntries(profileColumns.map((k) => [k, p[k] ?? null])) as Record<(typeof profileColumns)[number], string | null>;
}

export interface ChatsRepo {
  /** One unit of work: the client is found or created (its profile updated), its live chat found or
   * opened, and the message stored. Throws ChannelChanged when the channel is deleted or its bot is no longer
   * `botProviderRowId` (PostgreSQL checks this: a channel read from a cache may be older than the database). */
  appendClientMessage(input: NewClientMessage): Promise<ClientMessageResult>;
  /** Forgets idempotency keys older than the window. */
  forgetIdempotencyKeys(now?: number): Promise<number>;
  /** Updates a client's profile without a message (typing and profile-only updates). */
  updateClientProfile(
    channelId: number,
    client: NewClientMessage['client'],
  ): Promise<{ client: ClientRecord; changed: boolean; liveChatId: number | null }>;
  /** One unit of work: the message, the chat's last message, the assignment of a free chat and the
   * outbound delivery. */
  appendAgentMessage(input: NewAgentMessage): Promise<{ chat: ChatRecord; message: MessageRecord }>;
  findById(id: number): Promise<ChatRecord | undefined>;
  /** The chat, if it is on a live channel the agent is assigned to. */
  findForAgent(chatId: number, agentId: number): Promise<ChatRecord | undefined>;
  /** A page of the agent's chats in the state, most recent message first, after `from` (the first page when
   * null), and how many chats the agent has in that state. */
  listForAgent(agentId: number, state: ChatState, limit: number, from: InboxPosition | null): Promise<InboxPage>;
  /** The agent takes the chat (from the queue, from a bot or from another agent), and the bot that saw it
   * first is told once (`joined`), in the same unit of work. False when closed. */
  assign(chatId: number, agentId: number, joined?: NewDelivery | null): Promise<boolean>;
  /** Closes the chat, blocking its client too when asked, and writes what the close sends (`closedNotices`: the
   * bot's CHAT_CLOSED, the site owner's chat_finished) in the same unit of work. False when the chat was
   * already closed (nothing written). */
  close(chatId: number, blacklist: boolean, closedNotices?: readonly NewDelivery[]): Promise<boolean>;
  /** Up to `limit` live chats of the channel with no message since `idleSince` (ms), the longest idle first. */
  listIdle(channelId: number, idleSince: number, limit: number): Promise<number[]>;
  /** Closes the chat if it is still live and still idle since `idleSince`, with a system message saying why and
   * what the close sends written with it (`closedNotices`, as `close`), in one unit of work. Undefined when it was closed or written in meanwhile
   * (another node's sweep, a new message). */
  closeIdle(
    chatId: number,
    idleSince: number,
    note: string,
    closedNotices?: readonly NewDelivery[],
  ): Promise<{ chat: ChatRecord; message: MessageRecord } | undefined>;
  /** Moves a chat from its bot to the agents' queue with a system message saying why, in one unit of
   * work. Undefined when the bot did not hold it. */
  handOver(chatId: number, note: string): Promise<{ chat: ChatRecord; message: MessageRecord } | undefined>;
  /** Keeps what the owner's server said about the chat (chat_accepted) for agents and the archive. */
  setCrm(chatId: number, crm: CrmView): Promise<void>;
  /** Puts the chat in a department (spec 2.3), or takes it out of its department with null. False when
   * there is no such chat. */
  setDepartment(chatId: number, departmentId: number | null): Promise<boolean>;
  /** The visitor's rating of the chat (spec 2.3 chat.rate). */
  setRate(chatId: number, rate: 'positive' | 'negative'): Promise<void>;
  /** How many chats the client has had (spec 2.3 visitor.chats_count). */
  countByClient(clientId: number): Promise<number>;
  /** Lifts the block on the client of this chat. */
  unblockClient(chatId: number): Promise<void>;
}
