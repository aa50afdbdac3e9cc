import { mediaJson, nullProfile, profileColumns, type NewClientMessage } from '../chats.ts';
import type { ChatRecord, MessageRecord } from '../records.ts';
import { chatWithMessageColumns, madeLastMessage, toChatOfColumns, type ChatWithMessageRow } from './chat-columns.ts';
import { postgresSchema } from './migrate.ts';
import { answeredByServer, type PgDb } from './pg-db.ts';
import { atEndOfTurn } from './statement-batch.ts';

/**
 * Customers' messages into their live chats, many in one statement (one round trip, one commit, one WAL flush):
 * the common Chat API intake. A message qualifies when its channel is live with the bot the caller read (the
 * caller's channel may come from a cache), its client exists, is not blacklisted, sends no profile change,
 * and has a live chat; the statement locks those chats (in id order, as every batch does, so two
 * batches cannot deadlock), stores the messages and makes each its chat's last one. The statement is its own
 * transaction: when it answers, the messages are committed. A new customer's message goes to the statement
 * below (`run` says which goes first); a message neither took (a closed chat, a blocked client, a changed
 * profile) is answered `undefined`, and the caller runs the full unit of work for it; so is every message of a
 * statement that failed (it changed nothing).
 *
 * The locked chats carry what the rest of the statement reads of them, their channel and their message, and no
 * more: every plan node sets up a row description column by column (a type lookup each) on every execution, so
 * `ch.*` through the sort, the lock and the CTE, joining the input again for the message and the channel again for
 * the answer cost about 57,000 instructions per statement (callgrind, a batch of one over single-user mode; 13,000
 * per message in batches of 10). The values are the ones those joins read: the same statement, the same rows.
 */
const appendBatchSql = `
  WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::jsonb[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
      WITH ORDINALITY AS i(channel_id, client_key, profile, type, text, media_json, external_id, bot_provider_id, ord)
  ),
  live AS (
    SELECT ch.id, ch.channel_id, ch.client_id, ch.state, ch.assigned_agent_id, ch.blacklisted, ch.created_at, ch.closed_at, ch.bot_provider_id,
           ch.agent_joined, ch.crm_json, ch.rate, ch.department_id,
           i.ord, i.type AS m_type, i.text AS m_text, i.media_json AS m_media_json, i.external_id AS m_external_id,
           c.kind AS c_kind, c.name AS c_name, c.safe_domains_json AS c_safe_domains_json
      FROM input i
      JOIN channels c ON c.id = i.channel_id AND c.deleted_at IS NULL AND c.bot_provider_id IS NOT DISTINCT FROM i.bot_provider_id
      JOIN clients cl ON cl.channel_id = i.channel_id AND cl.external_key = i.client_key
      JOIN chats ch ON ch.client_id = cl.id AND ch.state != 'closed'
     WHERE cl.blacklisted = 0
       AND ${profileColumns.map((k) => `(NOT i.profile ? '${k}' OR cl.${k} IS NOT DISTINCT FROM i.profile->>'${k}')`).join(' AND ')}
     ORDER BY ch.id
     FOR UPDATE OF ch
  ),
  m AS (
    INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, created_at)
    SELECT id, 'client', NULL, m_type, m_text, m_media_json, m_external_id, 'delivered', $9::bigint FROM live ORDER BY ord
    RETURNING *
  ),
  last AS (${madeLastMessage})
  ${chatWithMessageColumns('ch.c_')}, ch.ord AS batch_ord
  FROM live ch JOIN m ON m.chat_id = ch.id JOIN clients cl ON cl.id = ch.client_id
    LEFT JOIN departments d ON d.id = ch.department_id`;

/**
 * New customers' first messages, many in one statement as well (its own transaction, one commit): the messages
 * the statement above did not take whose client does not exist yet. For each, the client, its chat and the
 * message, the chat's last one from the start (the chat's activity row, added at the end of the statement, takes
 * it: chat-activity.ts). The chat also holds its first customer's message time from the start: the message's
 * report-facts trigger then has nothing to write, where setting it there was a second write of the chat row that
 * fired two more report triggers (about 1,000,000 instructions per new customer, callgrind; the report rows come
 * out the same, as a new chat has no agents and no answer yet). A message is left out (no row) when its client exists (or a concurrent first message took the key first: the insert waits for that one's
 * commit, then does nothing), or its channel is deleted or has another bot than the caller read; the
 * existence check comes before the insert so that an existing client burns no id. Two batches take their locks
 * in one order, so they cannot deadlock: clients are inserted in key order, and chats in the order of the
 * report_hours rows their insert trigger adds to (channel, then stripe: the chat ids are drawn first; the hour
 * is the statement's, the department none yet).
 */
const newCustomersSql = `
  WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                         $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[])
      WITH ORDINALITY AS i(channel_id, client_key, external_id_json, ${profileColumns.join(', ')}, type, text, media_json, external_id,
                           bot_provider_id, ord)
  ),
  cl AS (
    INSERT INTO clients (channel_id, external_key, external_id_json, ${profileColumns.join(', ')}, created_at, updated_at)
    SELECT i.channel_id, i.client_key, i.external_id_json, ${profileColumns.map((k) => `i.${k}`).join(', ')}, $15::bigint, $15::bigint
      FROM input i
     WHERE NOT EXISTS (SELECT 1 FROM clients WHERE channel_id = i.channel_id AND external_key = i.client_key)
       AND EXISTS (SELECT 1 FROM channels WHERE id = i.channel_id AND deleted_at IS NULL AND bot_provider_id IS NOT DISTINCT FROM i.bot_provider_id)
     ORDER BY i.channel_id, i.client_key
    ON CONFLICT (channel_id, external_key) DO NOTHING
    RETURNING *
  ),
  new AS (
    SELECT cl.id AS client_id, nextval(pg_get_serial_sequence('chats', 'id')) AS chat_id, i.*
      FROM cl JOIN input i ON i.channel_id = cl.channel_id AND i.client_key = cl.external_key
  ),
  ch AS (
    INSERT INTO chats (id, channel_id, client_id, state, bot_provider_id, created_at, first_client_message_at)
    SELECT chat_id, channel_id, client_id, CASE WHEN bot_provider_id IS NULL THEN 'open' ELSE 'bot' END, bot_provider_id, $15, $15
      FROM new ORDER BY channel_id, chat_id % ${postgresSchema.hotRowStripes}, chat_id
    RETURNING *
  ),
  m AS (
    INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, created_at)
    SELECT ch.id, 'client', NULL, new.type, new.text, new.media_json, new.external_id, 'delivered', $15
      FROM ch JOIN new ON new.client_id = ch.client_id
    RETURNING *
  )
  ${chatWithMessageColumns()}, new.ord AS batch_ord
  FROM ch JOIN channels c ON c.id = ch.channel_id JOIN new ON new.client_id = ch.client_id JOIN cl ON cl.id = ch.client_id
    JOIN m ON m.chat_id = ch.id LEFT JOIN departments d ON d.id = ch.department_id`;

/** Statements in flight at once: the next batch gathers while these run, so load makes batches, not queues of
 * statements, and a lone message waits only for the end of its turn of the event loop. */
const IN_FLIGHT = 2;
/** The most messages one statement carries. */
const MAX_BATCH = 256;
/** Clients remembered as seen, in each of two generations: when the newer is full the older is dropped, so only
 * clients not seen for that long are forgotten (their next message only costs the new customers' statement beside
 * its own, which stores nothing for them). */
const KNOWN_PER_GENERATION = 50_000;

type Stored = { chat: ChatRecord; message: MessageRecord; chatCreated: boolean };
interface Pending {
  input: NewClientMessage;
  resolve: (stored: Stored | undefined) => void;
  reject: (error: unknown) => void;
}

const appendColumns = ({ input: { channelId, client, message, botProviderRowId } }: Pending) => [
  channelId,
  client.key,
  JSON.stringify(Object.fromEntries(profileColumns.filter((k) => client.profile[k] !== undefined).map((k) => [k, client.profile[k]]))),
  message.type,
  message.text,
  mediaJson(message.media),
  message.externalId,
  botProviderRowId,
];

const newCustomerColumns = ({ input: { channelId, client, message, botProviderRowId } }: Pending) => {
  const profile = nullProfile(client.profile);
  return [
    channelId,
    client.key,
    JSON.stringify(client.id),
    ...profileColumns.map((k) => profile[k]),
    message.type,
    message.text,
    mediaJson(message.media),
    message.externalId,
    botProviderRowId,
  ];
};

export function createClientMessageBatcher(db: PgDb) {
  let queue: Pending[] = [];
  let inFlight = 0;
  const flushSoon = atEndOfTurn(() => flush());

  /** Runs `sql` over the column arrays of `items`; the rows it answered, by the item's index. `false` when
   * PostgreSQL refused the statement (nothing was written); throws when whether it committed is unknown. */
  async function statement(sql: string, items: Pending[], columns: (item: Pending) => unknown[], now: number) {
    const rows = items.map(columns);
    try {
      const answered = await db.all<ChatWithMessageRow & { batch_ord: number }>(sql, [
        ...rows[0]!.map((_, c) => rows.map((row) => row[c])),
        now,
      ]);
      return new Map(answered.map((row) => [row.batch_ord - 1, toChatOfColumns(row)]));
    } catch (error) {
      if (answeredByServer(error)) return false;
      throw error;
    }
  }

  /** Clients this node has stored a message of: their next one most likely goes into their live chat. */
  let known = new Set<string>();
  let knownBefore = new Set<string>();
  const isKnown = (client: string) => known.has(client) || knownBefore.has(client);
  const remember = (client: string) => {
    if (known.has(client)) return;
    if (known.size >= KNOWN_PER_GENERATION) [knownBefore, known] = [known, new Set()];
    known.add(client);
  };
  const clientOf = ({ input }: Pending) => `${input.channelId}:${input.client.key}`;

  async function run(batch: Pending[]) {
    const now = Date.now();
    const stored = new Set<Pending>();
    /** Messages a statement whose outcome is unknown may hold: running them again could store them twice. */
    const unsure = new Map<Pending, unknown>();
    /** Runs one of the two statements over `items`, answering each message it stored. `false` when PostgreSQL
     * refused it (it changed nothing). */
    const take = async (sql: string, items: Pending[], columns: (item: Pending) => unknown[], chatCreated: boolean) => {
      try {
        const answered = await statement(sql, items, columns, now);
        if (!answered) return false;
        for (const [i, chat] of answered) {
          const item = items[i]!;
          stored.add(item);
          remember(clientOf(item));
          // Answered once committed, whatever the other statement does: one message per client here, so no
          // chat's order depends on it.
          item.resolve({ chat, message: chat.lastMessage!, chatCreated });
        }
        return true;
      } catch (error) {
        for (const item of items) unsure.set(item, error);
        return false;
      }
    };
    // A message of a client this node has seen goes to the live chats' statement first, the others to the new
    // customers' one first, both statements at once; then each message left goes to the other statement. A new
    // customer then waits for one statement, not two (a customer this node has not seen yet, the first time after
    // a restart, for two). A message is in one statement at a time: the live chats' statement must not see the
    // client another statement of its own batch has just committed.
    const fresh = batch.filter((item) => !isKnown(clientOf(item)));
    const seen = batch.filter((item) => isKnown(clientOf(item)));
    const left = (items: Pending[]) => items.filter((item) => !stored.has(item) && !unsure.has(item));
    const [appended, opened] = await Promise.all([
      seen.length > 0 && take(appendBatchSql, seen, appendColumns, false),
      fresh.length > 0 && take(newCustomersSql, fresh, newCustomerColumns, true),
    ]);
    // A seen client whose message went nowhere may have been erased: it is a new customer again. A statement
    // PostgreSQL refused leaves its messages to the full unit of work, which retries and reports its own errors.
    const [seenLeft, freshLeft] = [appended ? left(seen) : [], opened ? left(fresh) : []];
    await Promise.all([
      seenLeft.length > 0 && take(newCustomersSql, seenLeft, newCustomerColumns, true),
      freshLeft.length > 0 && take(appendBatchSql, freshLeft, appendColumns, false),
    ]);
    for (const item of batch) {
      if (stored.has(item)) continue;
      if (unsure.has(item)) item.reject(unsure.get(item));
      else item.resolve(undefined);
    }
  }

  function flush() {
    while (queue.length > 0 && inFlight < IN_FLIGHT) {
      // One message per client in a statement: a chat's messages then keep their order, one per statement.
      const batch: Pending[] = [];
      const rest: Pending[] = [];
      const clients = new Set<string>();
      for (const item of queue) {
        const client = clientOf(item);
        if (batch.length < MAX_BATCH && !clients.has(client)) {
          clients.add(client);
          batch.push(item);
        } else rest.push(item);
      }
      queue = rest;
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        flush();
      });
    }
  }

  return {
    /** Messages waiting for a statement: writes the store is behind (admission control counts them). */
    backlog: () => queue.length,
    /** Stores the message if it goes into its client's live chat as is; `undefined` when the full unit of work
     * must take it. Resolves once committed. */
    append(input: NewClientMessage): Promise<Stored | undefined> {
      return new Promise((resolve, reject) => {
        queue.push({ input, resolve, reject });
        flushSoon();
      });
    },
  };
}
