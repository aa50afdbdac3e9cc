import {
  INBOX_START,
  inboxCountSql,
  inboxPage,
  inboxPageSql,
  ChannelChanged,
  ClientBlocked,
  IDEMPOTENCY_WINDOW_MS,
  mediaJson,
  nullProfile,
  profileColumns,
  toChat,
  type ChatRow,
  type ChatsRepo,
  type ClientMessageResult,
  type NewAgentMessage,
  type NewClientMessage,
} from '../chats.ts';
import type { NewDelivery } from '../records.ts';
import { toClient, type ClientRow } from '../rows.ts';
import { createAgentChatReader } from './agent-chat-read.ts';
import { createAgentMessageBatcher } from './agent-message.ts';
import { chatColumns, lastMessageOfChat, madeLastMessage } from './chat-columns.ts';
import { createClientMessageBatcher } from './client-message-batch.ts';
import { insertPgDelivery } from './insert-delivery.ts';
import type { PgDb, PgSql } from './pg-db.ts';

const select = `${chatColumns(lastMessageOfChat)}
  FROM chats ch JOIN channels c ON c.id = ch.channel_id`;

/**
 * A customer's message into the client's live chat, in one statement (the common case, one round trip): locks
 * the live chat (a close that commits first leaves no live chat, and the caller opens a new one), stores the
 * message, makes it the chat's last one, and answers the chat as locked with that message. No row when the
 * client has no live chat.
 */
const appendToLiveChatSql = `
  WITH live AS (SELECT * FROM chats WHERE client_id = $1 AND state != 'closed' FOR UPDATE),
  m AS (
    INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, created_at)
    SELECT live.id, 'client', NULL, $2::text, $3::text, $4::text, $5::text, 'delivered', $6::bigint FROM live
    RETURNING *
  ),
  last AS (${madeLastMessage})
  ${chatColumns('m')}
  FROM live ch JOIN channels c ON c.id = ch.channel_id`;

const chatById = async (sql: PgSql, id: number) => toChat((await sql.one<ChatRow>(`${select} WHERE ch.id = $1`, [id]))!);

/** The chat and its last message, the one just stored (a round trip less than reading the message apart). */
async function chatWithLastMessage(sql: PgSql, chatId: number) {
  const chat = await chatById(sql, chatId);
  return { chat, message: chat.lastMessage! };
}

/**
 * Finds the client (locking its row until commit) or creates it, and applies its profile. The lock makes
 * every write about one client (its live chat above all) wait for the one before it, across nodes.
 */
async function upsertClient(sql: PgSql, channelId: number, c: NewClientMessage['client'], now: number) {
  const lock = 'SELECT * FROM clients WHERE channel_id = $1 AND external_key = $2 FOR UPDATE';
  let existing = await sql.one<ClientRow>(lock, [channelId, c.key]);
  if (!existing) {
    const p = nullProfile(c.profile);
    // A concurrent insert of the same client makes this one wait on the unique index, then do nothing; the
    // row it committed is then locked like any other.
    const created = await sql.one<ClientRow>(
      `INSERT INTO clients (channel_id, external_key, external_id_json, name, phone, email, photo, url, invite, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)
       ON CONFLICT (channel_id, external_key) DO NOTHING RETURNING *`,
      [channelId, c.key, JSON.stringify(c.id), p.name, p.phone, p.email, p.photo, p.url, p.invite, now],
    );
    if (created) return { client: created, changed: true, created: true };
    existing = (await sql.one<ClientRow>(lock, [channelId, c.key]))!;
  }
  const changes = profileColumns.filter((k) => c.profile[k] !== undefined && c.profile[k] !== existing[k]);
  if (changes.length === 0) return { client: existing, changed: false, created: false };
  const sets = changes.map((k, i) => `${k} = $${i + 3}`).join(', ');
  const updated = await sql.one<ClientRow>(`UPDATE clients SET ${sets}, updated_at = $2 WHERE id = $1 RETURNING *`, [
    existing.id,
    now,
    ...changes.map((k) => c.profile[k]),
  ]);
  return { client: updated!, changed: true, created: false };
}

/**
 * Takes the Idempotency-Key for this request, or answers the first request's result. A concurrent request
 * with the same key waits on the key's row until this one commits (then replays it) or rolls back (then
 * takes the key). An expired key is taken over, as SQLite's INSERT OR REPLACE does.
 */
async function claimIdempotencyKey(sql: PgSql, channelId: number, key: string, now: number) {
  const claimed = await sql.run(
    `INSERT INTO idempotency_keys (channel_id, key, response_json, created_at) VALUES ($1, $2, '{}', $3)
     ON CONFLICT (channel_id, key) DO UPDATE SET response_json = excluded.response_json, created_at = excluded.created_at
     WHERE idempotency_keys.created_at <= $4`,
    [channelId, key, now, now - IDEMPOTENCY_WINDOW_MS],
  );
  if (claimed === 1) return undefined;
  const seen = await sql.value<string>('SELECT response_json FROM idempotency_keys WHERE channel_id = $1 AND key = $2', [channelId, key]);
  return JSON.parse(seen!) as { chatId: number; messageId: number };
}

/** A new chat for the client, which has no live one: it opens in the department asked for the client's next
 * chat, which is then used up (both in one statement: its parts see the client as it was before). */
async function newChat(sql: PgSql, input: NewClientMessage, clientId: number, now: number) {
  return (await sql.value<number>(
    `WITH cl AS (SELECT pending_department_id FROM clients WHERE id = $2),
     used AS (UPDATE clients SET pending_department_id = NULL WHERE id = $2 AND pending_department_id IS NOT NULL)
     INSERT INTO chats (channel_id, client_id, state, bot_provider_id, created_at, department_id)
     VALUES ($1, $2, $3, $4, $5, (SELECT pending_department_id FROM cl)) RETURNING id`,
    [input.channelId, clientId, input.botProviderRowId === null ? 'open' : 'bot', input.botProviderRowId, now],
  ))!;
}

/** The first message of a chat just opened in this transaction, and the chat with it, in one statement. */
const firstMessageSql = `
  WITH m AS (
    INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, created_at)
    VALUES ($1, 'client', NULL, $2, $3, $4, $5, 'delivered', $6) RETURNING *
  ),
  last AS (${madeLastMessage})
  ${chatColumns('m')}
  FROM chats ch JOIN channels c ON c.id = ch.channel_id WHERE ch.id = $1`;

/** An agent's (or the system's) message, its delivery still to decide, made the chat's last one; answers the chat
 * with it. The caller holds the chat's row lock. */
const agentMessageSql = `
  WITH m AS (
    INSERT INTO messages (chat_id, author, agent_id, type, text, media_json, external_id, delivery, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, NULL, 'pending', $7) RETURNING *
  ),
  last AS (${madeLastMessage})
  ${chatColumns('m')}
  FROM chats ch JOIN channels c ON c.id = ch.channel_id WHERE ch.id = $1`;

async function appendClientMessage(sql: PgSql, input: NewClientMessage): Promise<ClientMessageResult> {
  const now = Date.now();
  const channelAsRead = await sql.one(
    'SELECT 1 FROM channels WHERE id = $1 AND deleted_at IS NULL AND bot_provider_id IS NOT DISTINCT FROM $2',
    [input.channelId, input.botProviderRowId],
  );
  if (!channelAsRead) throw new ChannelChanged();
  const key = input.idempotencyKey;
  if (key !== undefined) {
    const seen = await claimIdempotencyKey(sql, input.channelId, key, now);
    if (seen) return { replayed: true, ...seen };
  }
  const { client, changed, created } = await upsertClient(sql, input.channelId, input.client, now);
  if (client.blacklisted === 1) throw new ClientBlocked();
  const m = input.message;
  const values = [m.type, m.text, mediaJson(m.media), m.externalId, now];
  // A client created just now has no chat yet.
  const appended = created ? undefined : await sql.one<ChatRow>(appendToLiveChatSql, [client.id, ...values]);
  const chatCreated = appended === undefined;
  const chat = toChat(appended ?? (await sql.one<ChatRow>(firstMessageSql, [await newChat(sql, input, client.id, now), ...values]))!);
  const message = chat.lastMessage!;
  const chatId = chat.id;
  if (key !== undefined) {
    await sql.run('UPDATE idempotency_keys SET response_json = $3 WHERE channel_id = $1 AND key = $2', [
      input.channelId,
      key,
      JSON.stringify({ chatId, messageId: message.id }),
    ]);
  }
  const forward = input.forward?.({ chat, message }) ?? null;
  if (forward) await insertPgDelivery(sql, { ...forward, chatId, messageId: null }, now);
  return { replayed: false, chat, message, chatCreated, clientChanged: changed && !chatCreated, forwarded: forward !== null };
}

/** AGENT_JOINED goes to the chat's bot once, with whatever gave the chat its agent. */
async function notifyJoined(sql: PgSql, chatId: number, joined: NewDelivery | null) {
  if (!joined) return;
  const marked = await sql.run('UPDATE chats SET agent_joined = 1 WHERE id = $1 AND agent_joined = 0 AND bot_provider_id IS NOT NULL', [
    chatId,
  ]);
  if (marked === 1) await insertPgDelivery(sql, { ...joined, chatId, messageId: null }, Date.now());
}

async function appendAgentMessage(sql: PgSql, input: NewAgentMessage) {
  const now = Date.now();
  // Writes to one chat queue on its row, so its messages and deliveries get ids in commit order: the
  // outbox sends a chat's rows in id order. The agent who answers an unassigned chat takes it (as the Reply
  // action would) in the statement that locks the row.
  const taken = await sql.value<boolean>(
    `WITH locked AS (SELECT id, assigned_agent_id, state FROM chats WHERE id = $1 FOR UPDATE),
     taken AS (
       UPDATE chats SET assigned_agent_id = $2, state = 'open' FROM locked
       WHERE chats.id = locked.id AND $2::bigint IS NOT NULL AND locked.assigned_agent_id IS NULL AND locked.state IN ('open', 'bot')
       RETURNING 1
     )
     SELECT EXISTS (SELECT 1 FROM taken) FROM locked`,
    [input.chatId, input.agentId],
  );
  if (taken) await notifyJoined(sql, input.chatId, input.joined ?? null);
  const m = input.message;
  // The chat as stored comes back with the message; the delivery's row changes nothing it shows.
  const stored = toChat(
    (await sql.one<ChatRow>(agentMessageSql, [
      input.chatId,
      input.author ?? 'agent',
      input.agentId,
      m.type,
      m.text,
      mediaJson(m.media),
      now,
    ]))!,
  );
  const messageId = stored.lastMessage!.id;
  const delivery = input.delivery(messageId);
  if (delivery === null) await sql.run("UPDATE messages SET delivery = 'delivered' WHERE id = $1", [messageId]);
  else if ('notSent' in delivery)
    await sql.run("UPDATE messages SET delivery = 'failed', error = $1 WHERE id = $2", [delivery.notSent, messageId]);
  else {
    await insertPgDelivery(sql, { ...delivery, chatId: input.chatId, messageId }, now);
    return { chat: stored, message: stored.lastMessage! };
  }
  return chatWithLastMessage(sql, input.chatId);
}

export function createPgChatsRepo(
  db: PgDb,
  batcher = createClientMessageBatcher(db),
  agentBatcher = createAgentMessageBatcher(db),
  agentChats = createAgentChatReader(db, agentBatcher.answers),
): ChatsRepo {
  return {
    async appendClientMessage(input) {
      // The common cases, a message into a live chat and a new customer's first one, share one statement with
      // the others arriving with them.
      if (input.idempotencyKey === undefined && input.forward === undefined) {
        const stored = await batcher.append(input);
        if (stored) return { replayed: false, ...stored, clientChanged: false, forwarded: false };
      }
      return db.tx((sql) => appendClientMessage(sql, input));
    },
    async forgetIdempotencyKeys(now = Date.now()) {
      return db.run('DELETE FROM idempotency_keys WHERE created_at <= $1', [now - IDEMPOTENCY_WINDOW_MS]);
    },
    async updateClientProfile(channelId, c) {
      return db.tx(async (sql) => {
        const { client, changed } = await upsertClient(sql, channelId, c, Date.now());
        const liveChatId = await sql.value<number>("SELECT id FROM chats WHERE client_id = $1 AND state != 'closed'", [client.id]);
        return { client: toClient(client), changed, liveChatId: liveChatId ?? null };
      });
    },
    async appendAgentMessage(input) {
      // The common case shares one statement with the others arriving with it.
      return agentBatcher.append(input, () => db.tx((sql) => appendAgentMessage(sql, input)));
    },
    async findById(id) {
      const row = await db.one<ChatRow>(`${select} WHERE ch.id = $1`, [id]);
      return row && toChat(row);
    },
    findForAgent: agentChats.findForAgent,
    async listForAgent(agentId, state, limit, from) {
      const asOf = from?.asOf ?? (await db.one<{ id: number }>('SELECT COALESCE(MAX(id), 0) AS id FROM messages'))!.id;
      const [rows, count] = await Promise.all([
        db.all<{ id: number; sort_key: number }>(
          inboxPageSql(
            { agentId: '$1', state: '$2', asOf: '$3::bigint', key: '$4::bigint', chatId: '$5::bigint', limit: '$6' },
            'chat_activity',
          ),
          [agentId, state, asOf, from?.lastMessageId ?? INBOX_START, from?.chatId ?? INBOX_START, limit + 1],
        ),
        db.one<{ total: number }>(inboxCountSql('$1', '$2'), [agentId, state]),
      ]);
      const chats = await db.all<ChatRow>(`${select} WHERE ch.id = ANY($1::bigint[])`, [rows.map((r) => r.id)]);
      return inboxPage(rows, chats.map(toChat), limit, asOf, count!.total);
    },
    async assign(chatId, agentId, joined = null) {
      return db.tx(async (sql) => {
        const taken = await sql.run("UPDATE chats SET assigned_agent_id = $1, state = 'open' WHERE id = $2 AND state != 'closed'", [
          agentId,
          chatId,
        ]);
        if (taken !== 1) return false;
        await notifyJoined(sql, chatId, joined);
        return true;
      });
    },
    async close(chatId, blacklist, closedNotices = []) {
      return db.tx(async (sql) => {
        // Client before chat, the order appendClientMessage locks them in, so the two cannot deadlock.
        if (blacklist) {
          await sql.run('SELECT 1 FROM clients WHERE id = (SELECT client_id FROM chats WHERE id = $1) FOR UPDATE', [chatId]);
        }
        const now = Date.now();
        const closed =
          (await sql.run("UPDATE chats SET state = 'closed', closed_at = $1, blacklisted = $2 WHERE id = $3 AND state != 'closed'", [
            now,
            blacklist ? 1 : 0,
            chatId,
          ])) === 1;
        if (closed && blacklist) {
          await sql.run('UPDATE clients SET blacklisted = 1 WHERE id = (SELECT client_id FROM chats WHERE id = $1)', [chatId]);
        }
        if (closed) for (const notice of closedNotices) await insertPgDelivery(sql, { ...notice, chatId, messageId: null }, now);
        return closed;
      });
    },
    async listIdle(channelId, idleSince, limit) {
      const rows = await db.all<{ id: number }>(
        "SELECT id FROM chat_activity WHERE channel_id = $1 AND state != 'closed' AND last_activity_at <= $2 ORDER BY last_activity_at LIMIT $3",
        [channelId, idleSince, limit],
      );
      return rows.map((r) => r.id);
    },
    async closeIdle(chatId, idleSince, note, closedNotices = []) {
      return db.tx(async (sql) => {
        const now = Date.now();
        // The chat's lock first: a message that got it before has then committed its activity, which the update's
        // own snapshot (taken after the lock) sees; a message that comes after waits for the close.
        await sql.run('SELECT 1 FROM chats WHERE id = $1 FOR UPDATE', [chatId]);
        const closed = await sql.run(
          `UPDATE chats SET state = 'closed', closed_at = $1
           WHERE id = $2 AND state != 'closed' AND (SELECT last_activity_at FROM chat_activity WHERE id = $2) <= $3`,
          [now, chatId, idleSince],
        );
        if (closed !== 1) return undefined;
        for (const notice of closedNotices) await insertPgDelivery(sql, { ...notice, chatId, messageId: null }, now);
        const system = { type: 'text' as const, text: note, media: {} };
        return appendAgentMessage(sql, { chatId, agentId: null, author: 'system', message: system, delivery: () => null });
      });
    },
    async handOver(chatId, note) {
      return db.tx(async (sql) => {
        if ((await sql.run("UPDATE chats SET state = 'open' WHERE id = $1 AND state = 'bot'", [chatId])) !== 1) return undefined;
        const system = { type: 'text' as const, text: note, media: {} };
        return appendAgentMessage(sql, { chatId, agentId: null, author: 'system', message: system, delivery: () => null });
      });
    },
    async setCrm(chatId, crm) {
      await db.run('UPDATE chats SET crm_json = $1 WHERE id = $2', [JSON.stringify(crm), chatId]);
    },
    async setDepartment(chatId, departmentId) {
      return (await db.run('UPDATE chats SET department_id = $1 WHERE id = $2', [departmentId, chatId])) === 1;
    },
    async setRate(chatId, rate) {
      await db.run('UPDATE chats SET rate = $1 WHERE id = $2', [rate, chatId]);
    },
    async countByClient(clientId) {
      return (await db.value<number>('SELECT COUNT(*) FROM chats WHERE client_id = $1', [clientId])) ?? 0;
    },
    async unblockClient(chatId) {
      await db.run('UPDATE clients SET blacklisted = 0 WHERE id = (SELECT client_id FROM chats WHERE id = $1)', [chatId]);
    },
  };
}
