import { mediaJson, toChat, type ChatRow, type NewAgentMessage } from '../chats.ts';
import { DELIVERY_COLUMNS, deliveryValues } from '../deliveries.ts';
import type { ChatRecord, MessageRecord } from '../records.ts';
import { chatColumns } from './chat-columns.ts';
import { ORDERING_LOCK } from './insert-delivery.ts';
import { retryingStatement, type PgDb } from './pg-db.ts';

/**
 * The id the delivery is first built with, to find where the message's real id goes in it: the statement that
 * draws the id (under the chat's lock, so in commit order) writes it there. No message id comes near it.
 */
const STAND_IN_ID = Number.MAX_SAFE_INTEGER;
const STAND_IN = String(STAND_IN_ID);

/** Locks the chat, stores the message and makes it the chat's last one, the agent taking an unassigned chat in
 * the same update (as the Reply action would); answers the chat as this statement leaves it, with the message. */
const messageCtes = `
  WITH locked AS (SELECT id, assigned_agent_id, state FROM chats WHERE id = $1 FOR UPDATE),
  m AS (
    INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, error, created_at)
    SELECT locked.id, $2::text, $3::bigint, $4::text, $5::text, $6::text, NULL, $7::text, $8::text, $9::bigint FROM locked RETURNING *
  ),
  ch AS (
    UPDATE chats SET last_message_id = m.id, last_activity_at = m.created_at,
      assigned_agent_id = CASE WHEN take.taken THEN $3::bigint ELSE locked.assigned_agent_id END,
      state = CASE WHEN take.taken THEN 'open' ELSE locked.state END
    FROM m, locked,
      LATERAL (SELECT $3::bigint IS NOT NULL AND locked.assigned_agent_id IS NULL AND locked.state IN ('open', 'bot') AS taken) take
    WHERE chats.id = m.chat_id RETURNING chats.*
  )`;

const answer = `${chatColumns('m')} FROM ch JOIN channels c ON c.id = ch.channel_id`;

const withoutDeliverySql = `${messageCtes} ${answer}`;

/** With its outbox row: the ordering key's lock first (see insert-delivery.ts), then the row's id, in commit
 * order; the payload is the one built with the stand-in id, the message's id put in its place. */
const withDeliverySql = `${messageCtes},
  ordering AS (SELECT pg_advisory_xact_lock($10, hashtext($11)) FROM m),
  d AS (
    INSERT INTO deliveries (${DELIVERY_COLUMNS})
    SELECT $12::text, $13::bigint, m.chat_id, m.id, $11::text, $14::text, $15::text, $16::text || m.id::text || $17::text, $18::integer,
      $19::bigint, $9::bigint, $20::bigint FROM m, ordering
    RETURNING id
  )
  ${answer}`;

/**
 * An agent's (or the bot's) message in one statement, so one round trip and no BEGIN/COMMIT: what the
 * transaction in chats-repo.ts does in four. Undefined when this shape does not fit and the caller must use
 * that transaction: an AGENT_JOINED to write with it, a delivery whose payload does not hold the message id
 * exactly once (or whose other fields hold it), or a chat that is gone.
 */
export async function appendAgentMessageInOneStatement(
  db: PgDb,
  input: NewAgentMessage,
): Promise<{ chat: ChatRecord; message: MessageRecord } | undefined> {
  if (input.joined) return undefined;
  const now = Date.now();
  const m = input.message;
  const delivery = input.delivery(STAND_IN_ID);
  const state = delivery === null ? 'delivered' : 'notSent' in delivery ? 'failed' : 'pending';
  const error = delivery !== null && 'notSent' in delivery ? delivery.notSent : null;
  const messageValues = [input.chatId, input.author ?? 'agent', input.agentId, m.type, m.text, mediaJson(m.media), state, error, now];
  let row: ChatRow | undefined;
  if (delivery === null || 'notSent' in delivery) row = await retryingStatement(() => db.one<ChatRow>(withoutDeliverySql, messageValues));
  else {
    const [kind, channelId, , , orderingKey, eventId, url, payloadJson, maxAttempts, dueAt, , replayOf] = deliveryValues(
      { ...delivery, chatId: input.chatId, messageId: null },
      now,
    ) as [string, number, unknown, unknown, string, string, string, string, number, number, number, number | null];
    const parts = payloadJson.split(STAND_IN);
    const elsewhere = [kind, orderingKey, eventId, url].some((v) => v.includes(STAND_IN));
    if (parts.length !== 2 || elsewhere) return undefined;
    const [before, after] = parts as [string, string];
    const params = [
      ...messageValues,
      ORDERING_LOCK,
      orderingKey,
      kind,
      channelId,
      eventId,
      url,
      before,
      after,
      maxAttempts,
      dueAt,
      replayOf,
    ];
    row = await retryingStatement(() => db.one<ChatRow>(withDeliverySql, params));
  }
  if (!row) return undefined;
  const chat = toChat(row);
  return { chat, message: chat.lastMessage! };
}
