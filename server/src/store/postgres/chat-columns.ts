import { clientColumns } from '../rows.ts';

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
