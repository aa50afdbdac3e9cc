import { toChatWith, type ChatOwnColumns } from '../chats.ts';
import type { ChatRecord } from '../records.ts';
import { clientColumns, toClient, toMessage, type ClientRow, type MessageRow } from '../rows.ts';

const json = (pairs: string) => `json_build_object(${pairs})::text`;

/** A chat row (`ch`, from `chats` or a CTE of its columns) as ChatRow, its last message read from `lastMessage`
 * and its client from `clients` (a CTE of a client written by the same statement, which the table does not show yet). */
export const chatColumns = (lastMessage: string, clients = 'clients') => `
  SELECT ch.id, ch.channel_id, c.kind AS channel_kind, c.name AS channel_name, c.safe_domains_json AS channel_safe_domains_json, ch.state, ch.assigned_agent_id,
    ch.blacklisted, ch.created_at, ch.closed_at, ch.bot_provider_id, ch.agent_joined, ch.crm_json, ch.rate,
    (SELECT ${json("'id', d.id, 'name', d.name")} FROM departments d WHERE d.id = ch.department_id) AS department_json,
    (SELECT ${json(clientColumns.map((c) => `'${c}', cl.${c}`).join(', '))} FROM ${clients} cl WHERE cl.id = ch.client_id) AS client_json,
    (SELECT ${json(`'id', m.id, 'chat_id', m.chat_id, 'author', m.author, 'agent_id', m.agent_id, 'type', m.type,
       'text', m.text, 'agent_name', (SELECT name FROM agents WHERE id = m.agent_id), 'media_json', m.media_json, 'external_id', m.external_id, 'delivery', m.delivery,
       'error', m.error, 'created_at', m.created_at`)} FROM ${lastMessage}) AS last_message_json`;

/** `chatColumns`' `lastMessage` for a chat row read from `chats`: its last message as `chat_activity` names it. */
export const lastMessageOfChat = 'chat_activity a JOIN messages m ON m.id = a.last_message_id WHERE a.id = ch.id';

/** The update that makes each message of the CTE `m` its chat's last one (the writer holds the chat's row lock). */
export const madeLastMessage =
  'UPDATE chat_activity SET last_message_id = m.id, last_activity_at = m.created_at FROM m WHERE chat_activity.id = m.chat_id';

const messageColumns = [
  'id',
  'chat_id',
  'author',
  'agent_id',
  'type',
  'text',
  'media_json',
  'external_id',
  'delivery',
  'error',
  'created_at',
] as const;

/**
 * A chat row (`ch`) with a customer's message (`m`), its client (`cl`) and department (`d`, left joined) as plain
 * columns, for the intake batches. Building JSON costs PostgreSQL a type lookup and an output call per value on
 * every row, then the text is escaped and sent once more: about 85,000 instructions per message stored (callgrind,
 * a batch of 10 over the wire protocol), where plain columns go through output functions looked up once per
 * statement (issue 16). The statement itself costs about 130,000 more (its joins and wider row description), so
 * a batch of one message pays a little more than before and any larger batch less. `toChatOfColumns` reads the row.
 * `channel` is where the channel's columns are read: `c.` a joined `channels`, or a prefix of columns the chat rows carry.
 */
export const chatWithMessageColumns = (channel = 'c.') => `
  SELECT ch.id, ch.channel_id, ${channel}kind AS channel_kind, ${channel}name AS channel_name, ${channel}safe_domains_json AS channel_safe_domains_json,
    ch.state, ch.assigned_agent_id, ch.blacklisted, ch.created_at, ch.closed_at, ch.bot_provider_id, ch.agent_joined, ch.crm_json, ch.rate,
    d.id AS department_id, d.name AS department_name,
    ${clientColumns.map((k) => `cl.${k} AS client_${k}`).join(', ')},
    ${messageColumns.map((k) => `m.${k} AS message_${k}`).join(', ')}`;

export type ChatWithMessageRow = ChatOwnColumns & { department_id: number | null; department_name: string | null } & {
  [K in (typeof clientColumns)[number] as `client_${K}`]: ClientRow[K];
} & { [K in (typeof messageColumns)[number] as `message_${K}`]: MessageRow[K] };

const columnsOf = <K extends string>(row: Record<string, unknown>, prefix: string, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, row[`${prefix}${k}`]])) as Record<K, unknown>;

/** The chat of a `chatWithMessageColumns` row, the message its last one (a customer's: no agent's name). */
export const toChatOfColumns = (r: ChatWithMessageRow): ChatRecord =>
  toChatWith(r, {
    department: r.department_id === null ? null : { id: r.department_id, name: r.department_name! },
    client: toClient(columnsOf(r, 'client_', clientColumns) as unknown as ClientRow),
    lastMessage: toMessage(columnsOf(r, 'message_', messageColumns) as unknown as MessageRow),
  });
