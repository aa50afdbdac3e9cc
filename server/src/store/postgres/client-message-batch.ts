import { mediaJson, profileColumns, toChat, type ChatRow, type NewClientMessage } from '../chats.ts';
import type { ChatRecord, MessageRecord } from '../records.ts';
import { chatColumns } from './chat-columns.ts';
import type { PgDb } from './pg-db.ts';

/**
 * Customers' messages into their live chats, many in one statement (one round trip, one commit, one WAL flush):
 * the common Chat API intake. A message qualifies when its channel is live with the bot the caller read (the
 * caller's channel may come from a cache), its client exists, is not blacklisted, sends no profile change,
 * and has a live chat; the statement locks those chats (in id order, as every batch does, so two
 * batches cannot deadlock), stores the messages and makes each its chat's last one. The statement is its own
 * transaction: when it answers, the messages are committed. A message the statement did not take (a new
 * customer, a closed chat, a blocked client, a changed profile) is answered `undefined`, and the caller runs
 * the full unit of work for it; so is every message of a batch whose statement failed (it changed nothing).
 */
const appendBatchSql = `
  WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::jsonb[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
      WITH ORDINALITY AS i(channel_id, client_key, profile, type, text, media_json, external_id, bot_provider_id, ord)
  ),
  live AS (
    SELECT ch.*, i.ord FROM input i
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
    SELECT live.id, 'client', NULL, i.type, i.text, i.media_json, i.external_id, 'delivered', $9::bigint
      FROM live JOIN input i ON i.ord = live.ord ORDER BY i.ord
    RETURNING *
  ),
  last AS (UPDATE chats SET last_message_id = m.id, last_activity_at = m.created_at FROM m WHERE chats.id = m.chat_id)
  ${chatColumns('m WHERE m.chat_id = ch.id')}, ch.ord AS batch_ord
  FROM live ch JOIN channels c ON c.id = ch.channel_id`;

/** Statements in flight at once: the next batch gathers while these run, so load makes batches, not queues of
 * statements, and a lone message still goes at once. */
const IN_FLIGHT = 2;
/** The most messages one statement carries. */
const MAX_BATCH = 256;

type Stored = { chat: ChatRecord; message: MessageRecord };
interface Pending {
  input: NewClientMessage;
  resolve: (stored: Stored | undefined) => void;
  reject: (error: unknown) => void;
}

/** An error PostgreSQL answered (a SQLSTATE): the statement was rolled back. Any other (the connection lost on
 * the way) leaves unknown whether it committed. */
const answeredByServer = (error: unknown) => /^[0-9A-Z]{5}$/.test(String((error as { code?: unknown })?.code));

export function createClientMessageBatcher(db: PgDb) {
  let queue: Pending[] = [];
  let inFlight = 0;

  async function run(batch: Pending[]) {
    const now = Date.now();
    const columns = batch.map(({ input: { channelId, client, message, botProviderRowId } }) => [
      channelId,
      client.key,
      JSON.stringify(Object.fromEntries(profileColumns.filter((k) => client.profile[k] !== undefined).map((k) => [k, client.profile[k]]))),
      message.type,
      message.text,
      mediaJson(message.media),
      message.externalId,
      botProviderRowId,
    ]);
    const byOrd = new Map<number, Stored>();
    try {
      const rows = await db.all<ChatRow & { batch_ord: number }>(appendBatchSql, [
        ...[0, 1, 2, 3, 4, 5, 6, 7].map((c) => columns.map((row) => row[c])),
        now,
      ]);
      for (const row of rows) {
        const chat = toChat(row);
        byOrd.set(row.batch_ord, { chat, message: chat.lastMessage! });
      }
    } catch (error) {
      // Whether it committed is unknown: running the messages again could store them twice.
      if (!answeredByServer(error)) return batch.forEach((item) => item.reject(error));
      // Nothing was written; each message takes the full unit of work, which retries and reports its own errors.
    }
    batch.forEach((item, i) => item.resolve(byOrd.get(i + 1)));
  }

  function flush() {
    while (queue.length > 0 && inFlight < IN_FLIGHT) {
      // One message per client in a statement: a chat's messages then keep their order, one per statement.
      const batch: Pending[] = [];
      const rest: Pending[] = [];
      const clients = new Set<string>();
      for (const item of queue) {
        const client = `${item.input.channelId}:${item.input.client.key}`;
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
        flush();
      });
    },
  };
}
