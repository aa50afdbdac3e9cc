import { mediaJson, toChat, type ChatRow, type NewAgentMessage } from '../chats.ts';
import type { ChatRecord, MessageRecord } from '../records.ts';
import { createAgentAnswers, type AgentAnswers } from './agent-answers.ts';
import { chatColumns, madeLastMessage } from './chat-columns.ts';
import { pgDeliveryCtes, splitAtMark, type SourcedDelivery } from './insert-delivery.ts';
import { retryingStatement, type PgDb } from './pg-db.ts';
import { createStatementBatcher } from './statement-batch.ts';

/**
 * The id the delivery is first built with, to find where the message's real id goes in it: the statement that
 * draws the id (under the chat's lock, so in commit order) writes it there. No message id comes near it.
 */
const STAND_IN_ID = Number.MAX_SAFE_INTEGER;

const messageColumns = ['chat_id', 'author', 'agent_id', 'type', 'text', 'media_json', 'delivery', 'error'] as const;
const messageTypes = ['bigint', 'text', 'bigint', 'text', 'text', 'text', 'text', 'text'];

/**
 * Agents' (and bots') messages into many chats, one per chat, in one statement: its own transaction, so one
 * round trip, one commit and one WAL flush for the batch. Locks the chats (in id order, as every batch does, so
 * two batches cannot deadlock), stores the messages, makes each its chat's last one (in `chat_activity`: the chat's
 * row is written only when its agent takes it unassigned, as the Reply action would) and writes their outbox rows;
 * answers each chat as the statement leaves it (its columns as locked, with the take), with its message, and the
 * message's place in the batch. A chat that is gone
 * has no row, and neither has a chat's first agent answer nor an agent's first message in a chat: their report
 * triggers lock rows shared by many chats (first-response and per-agent rollups) in the batch's order, so two
 * batches could deadlock on them. Those go `solo`, each in a statement of its own that takes them (one message,
 * so one order), or, when the statement left them out, alone in the transaction of chats-repo.ts.
 */
const batchSql = (deliveries: { locks: string; insert: string }, solo: boolean) => `
  WITH input AS (
    SELECT * FROM unnest(${messageTypes.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
      WITH ORDINALITY AS i(${messageColumns.join(', ')}, ord)
  ),
  locked AS (
    SELECT ch.id, ch.channel_id, ch.client_id, ch.state, ch.assigned_agent_id, ch.blacklisted, ch.created_at, ch.closed_at,
           ch.bot_provider_id, ch.agent_joined, ch.crm_json, ch.rate, ch.department_id, i.ord
      FROM input i JOIN chats ch ON ch.id = i.chat_id
    ${
      solo
        ? ''
        : `WHERE i.author <> 'agent' OR (ch.first_agent_message_at IS NOT NULL
      AND (i.agent_id IS NULL OR EXISTS (SELECT 1 FROM chat_agents ca WHERE ca.chat_id = ch.id AND ca.agent_id = i.agent_id)))`
    }
    ORDER BY ch.id FOR UPDATE OF ch
  ),
  m AS (
    INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, error, created_at)
    SELECT locked.id, i.author, i.agent_id, i.type, i.text, i.media_json, NULL, i.delivery, i.error, $${messageColumns.length + 1}::bigint
      FROM locked JOIN input i ON i.ord = locked.ord ORDER BY i.ord
    RETURNING *
  ),
  source AS (SELECT m.id, m.chat_id, i.ord FROM m JOIN input i ON i.chat_id = m.chat_id),
  ${deliveries.locks},
  last AS (${madeLastMessage}),
  taken AS (
    UPDATE chats SET assigned_agent_id = m.agent_id, state = 'open' FROM m JOIN locked ON locked.id = m.chat_id
    WHERE chats.id = m.chat_id AND m.agent_id IS NOT NULL AND locked.assigned_agent_id IS NULL AND locked.state IN ('open', 'bot')
    RETURNING chats.id
  ),
  ch AS (
    SELECT locked.id, locked.channel_id, locked.client_id, locked.blacklisted, locked.created_at, locked.closed_at,
      locked.bot_provider_id, locked.agent_joined, locked.crm_json, locked.rate, locked.department_id,
      CASE WHEN taken.id IS NULL THEN locked.state ELSE 'open' END AS state,
      CASE WHEN taken.id IS NULL THEN locked.assigned_agent_id ELSE m.agent_id END AS assigned_agent_id
    FROM locked JOIN m ON m.chat_id = locked.id LEFT JOIN taken ON taken.id = locked.id
  ),
  ${deliveries.insert}
  ${chatColumns('m WHERE m.chat_id = ch.id')}, source.ord AS batch_ord
  FROM ch JOIN channels c ON c.id = ch.channel_id JOIN source ON source.chat_id = ch.id`;

/** A message the batch statement can take, as its columns, with its delivery if it has one. */
interface Prepared {
  columns: unknown[];
  delivery?: Omit<SourcedDelivery, 'ord'>;
}

/** Undefined when this shape does not fit and the caller must use the transaction in chats-repo.ts: an
 * AGENT_JOINED to write with it, or a delivery whose payload does not hold the message id exactly once (or
 * whose other fields hold it). */
function prepare(input: NewAgentMessage, now: number): Prepared | undefined {
  if (input.joined) return undefined;
  const m = input.message;
  const delivery = input.delivery(STAND_IN_ID);
  const state = delivery === null ? 'delivered' : 'notSent' in delivery ? 'failed' : 'pending';
  const error = delivery !== null && 'notSent' in delivery ? delivery.notSent : null;
  const columns = [input.chatId, input.author ?? 'agent', input.agentId, m.type, m.text, mediaJson(m.media), state, error];
  if (delivery === null || 'notSent' in delivery) return { columns };
  const sourced = splitAtMark({ ...delivery, chatId: input.chatId, messageId: null }, now, String(STAND_IN_ID), 0);
  return sourced && { columns, delivery: sourced };
}

type Stored = { chat: ChatRecord; message: MessageRecord };
/** A message with its columns when the batch statement can take it, and the transaction that writes it alone. */
type Pending = {
  prepared?: Prepared;
  chatId: number;
  /** The agent's, when it writes as an agent. */
  agentId: number | null;
  /** Its chat's first agent answer or its agent's first message in the chat, as far as this node knows. */
  solo: boolean;
  alone: () => Promise<Stored>;
};

/**
 * Group commit of agent messages on PostgreSQL: those that arrive together share the statement above, each
 * answered once it is committed. A chat's messages go one at a time (statement-batch.ts), so they keep the order
 * in which they arrived; ids, drawn under the chat's lock and the ordering keys' locks, follow commit order. A
 * message the statement cannot take, or did not, is written alone by its own transaction, and its error is its
 * own request's. Whether one is a first (see batchSql) is known from the chat read before it (`answers`): a first
 * goes in a statement of its own rather than being left out of a batch and written after it, and a message this
 * node knows nothing of goes in a batch, which leaves it out if it is a first.
 */
export function createAgentMessageBatcher(db: PgDb, answers: AgentAnswers = createAgentAnswers()) {
  const batcher = createStatementBatcher<Pending, Stored>({
    async write(pending) {
      const solo = pending.length === 1 && pending[0]!.solo;
      const batch = pending.map((item) => item.prepared!);
      const now = Date.now();
      const deliveries = batch.flatMap((item, i) => (item.delivery ? [{ ...item.delivery, ord: i + 1 }] : []));
      const ctes = pgDeliveryCtes(deliveries, {
        source: 'source',
        from: messageColumns.length + 2,
        messageIdFromSource: true,
        lockAfter: 'source',
      });
      const params = [...messageColumns.map((_, c) => batch.map((item) => item.columns[c])), now, ...ctes.params];
      const rows = await retryingStatement(() => db.all<ChatRow & { batch_ord: number }>(batchSql(ctes, solo), params));
      return new Map(
        rows.map((row) => {
          const chat = toChat(row);
          const { agentId, chatId } = pending[row.batch_ord - 1]!;
          if (agentId !== null) answers.saw(chatId, agentId, true);
          return [row.batch_ord - 1, { chat, message: chat.lastMessage! }];
        }),
      );
    },
    alone: (item) => item.alone(),
    key: (item) => item.chatId,
    batchable: (item) => item.prepared !== undefined,
    solo: (item) => item.solo,
  });
  return {
    backlog: batcher.backlog,
    /** What the chat reads tell the writes (agent-chat-read.ts). */
    answers,
    /** Stores the message with the others arriving with it, or by `alone` (a transaction) when the statement
     * cannot take it, after the chat's messages before it. Resolves once committed. */
    append(input: NewAgentMessage, alone: () => Promise<Stored>): Promise<Stored> {
      const agentId = (input.author ?? 'agent') === 'agent' ? input.agentId : null;
      const solo = agentId !== null && answers.answered(input.chatId, agentId) === false;
      return batcher.add({ prepared: prepare(input, Date.now()), chatId: input.chatId, agentId, solo, alone });
    },
  };
}
