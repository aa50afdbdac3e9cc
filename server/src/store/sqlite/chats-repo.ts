import type { ChatState, CrmView, DepartmentRef } from '@svc/protocol';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.ts';
import { nextId } from './retired-ids.ts';
import type { WriteBatcher } from './write-batcher.ts';
import { insertDelivery } from './insert-delivery.ts';
import type { ChatRecord, ClientRecord, MessageRecord, NewDelivery } from '../records.ts';
import { clientColumns, toClient, toMessage, type ClientRow } from '../rows.ts';
import {
  INBOX_START,
  inboxCountSql,
  inboxPage,
  inboxPageSql,
  type InboxPage,
  type InboxPosition,
  ClientBlocked,
  IDEMPOTENCY_WINDOW_MS,
  mediaJson,
  nullProfile,
  profileColumns,
  toChat,
  toChatWith,
  type ChatRow,
  type ClientMessageResult,
  type NewAgentMessage,
  type NewClientMessage,
  type ChatsRepo,
} from '../chats.ts';

const lastMessageJson = `(SELECT json_object('id', m.id, 'chat_id', m.chat_id, 'author', m.author, 'agent_id', m.agent_id, 'type', m.type,
       'text', m.text, 'agent_name', (SELECT name FROM agents WHERE id = m.agent_id), 'media_json', m.media_json, 'external_id', m.external_id, 'delivery', m.delivery,
       'error', m.error, 'created_at', m.created_at) FROM messages m WHERE m.id = ch.last_message_id) AS last_message_json`;
const ownColumns = `ch.id, ch.channel_id, c.kind AS channel_kind, c.name AS channel_name, c.safe_domains_json AS channel_safe_domains_json, ch.state,
    ch.assigned_agent_id, ch.blacklisted, ch.created_at, ch.closed_at, ch.bot_provider_id, ch.agent_joined, ch.crm_json, ch.rate,
    (SELECT json_object('id', d.id, 'name', d.name) FROM departments d WHERE d.id = ch.department_id) AS department_json`;
const select = `
  SELECT ${ownColumns},
    (SELECT json_object(${clientColumns.map((c) => `'${c}', cl.${c}`).join(', ')}) FROM clients cl WHERE cl.id = ch.client_id) AS client_json,
    ${lastMessageJson}
  FROM chats ch JOIN channels c ON c.id = ch.channel_id`;

type InboxRow = { id: number; sort_key: number };
type IntakeClient = Pick<ClientRow, 'id' | 'blacklisted' | (typeof profileColumns)[number]>;
type LiveChatRow = Omit<ChatRow, 'client_json' | 'last_message_json'>;

const fields = <T>(names: readonly string[], values: unknown[], from: number): T => {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) row[names[i]!] = values[from + i];
  return row as T;
};

/** The statement's row, read as an array and made an object here: better-sqlite3 builds a row object column by
 * column, which cost a chat read (17 columns) about as much as the read itself (issue 16). */
function rowReader<P extends unknown[], Row>(statement: Statement<P, unknown[]>): (...params: P) => Row | undefined {
  const names = statement.columns().map((column) => column.name);
  return (...params) => {
    const values = statement.get(...params);
    return values && fields<Row>(names, values, 0);
  };
}

export function createChatsRepo(db: Db, writes: WriteBatcher): ChatsRepo {
  const chatReader = <P extends unknown[]>(sql: string) => rowReader<P, ChatRow>(db.prepare<P, unknown[]>(sql).raw());
  const chatRow = {
    byId: chatReader<[number]>(`${select} WHERE ch.id = ?`),
    // The chat a message just went into: its last message is that one, which the intake knows.
    intake: chatReader<[number]>(`${select.replace(lastMessageJson, 'NULL AS last_message_json')} WHERE ch.id = ?`),
    forAgent: chatReader<[number, number]>(
      `${select} WHERE ch.id = ? AND c.deleted_at IS NULL AND ch.channel_id IN (SELECT channel_id FROM channel_agents WHERE agent_id = ?)`,
    ),
  };
  const q = {
    newestMessageId: db.prepare<[], number>('SELECT COALESCE(MAX(id), 0) FROM messages').pluck(),
    inboxPage: db.prepare<[{ agentId: number; state: string; asOf: number; key: number; chatId: number; limit: number }], InboxRow>(
      inboxPageSql({ agentId: '@agentId', state: '@state', asOf: '@asOf', key: '@key', chatId: '@chatId', limit: '@limit' }),
    ),
    inboxCount: db.prepare<[{ agentId: number; state: string }], number>(inboxCountSql('@agentId', '@state')).pluck(),
    byIds: db.prepare<[string], ChatRow>(`${select} WHERE ch.id IN (SELECT value FROM json_each(?))`),
    client: db.prepare<[number, string], ClientRow>('SELECT * FROM clients WHERE channel_id = ? AND external_key = ?'),
    // The client's columns a chat record holds, as intakeRows reads them (again, after a change).
    intakeClient: db.prepare<[number, string], ClientRow>(
      `SELECT ${clientColumns.join(', ')} FROM clients WHERE channel_id = ? AND external_key = ?`,
    ),
    // A customer's message reads the client and its live chat in one statement. A message changes none of these
    // columns: read before it is stored, they make the chat record without reading the chat again after. As
    // arrays: better-sqlite3 builds a row object column by column, which cost as much as the reads (issue 16).
    intakeRows: db
      .prepare<[number, string], unknown[]>(
        `SELECT ${clientColumns.map((c) => `cl.${c}`).join(', ')}, ${ownColumns}
         FROM clients cl LEFT JOIN chats ch ON ch.client_id = cl.id AND ch.state != 'closed' LEFT JOIN channels c ON c.id = ch.channel_id
         WHERE cl.channel_id = ? AND cl.external_key = ?`,
      )
      .raw(),
    insertClient: db.prepare(
      `INSERT INTO clients (id, channel_id, external_key, external_id_json, name, phone, email, photo, url, invite, created_at, updated_at)
       VALUES (${nextId('clients')}, @channelId, @key, @idJson, @name, @phone, @email, @photo, @url, @invite, @now, @now)`,
    ),
    liveChat: db.prepare<[number], { id: number }>("SELECT id FROM chats WHERE client_id = ? AND state != 'closed'"),
    // A new chat opens in the department asked for the client's next chat, which is then used up.
    insertChat: db.prepare(
      `INSERT INTO chats (id, channel_id, client_id, state, bot_provider_id, created_at, last_activity_at, department_id)
       VALUES (${nextId('chats')}, @channelId, @clientId, @state, @botProviderId, @now, @now, (SELECT pending_department_id FROM clients WHERE id = @clientId))`,
    ),
    clearPendingDepartment: db.prepare(
      'UPDATE clients SET pending_department_id = NULL WHERE id = ? AND pending_department_id IS NOT NULL',
    ),
    setDepartment: db.prepare('UPDATE chats SET department_id = ? WHERE id = ?'),
    handOver: db.prepare("UPDATE chats SET state = 'open' WHERE id = ? AND state = 'bot'"),
    markJoined: db.prepare('UPDATE chats SET agent_joined = 1 WHERE id = ? AND agent_joined = 0 AND bot_provider_id IS NOT NULL'),
    markFailed: db.prepare("UPDATE messages SET delivery = 'failed', error = ? WHERE id = ?"),
    // Positional, as the client's: binding from an object cost about a sixth of the insert here too (issue 16).
    insertAgentMessage: db.prepare<[number, string, number | null, string, string | null, string | null, number]>(
      `INSERT INTO messages (id, chat_id, author, agent_id, type, text, media_json, external_id, delivery, created_at)
       VALUES (${nextId('messages')}, ?, ?, ?, ?, ?, ?, NULL, 'pending', ?)`,
    ),
    // Positional: binding the hottest insert from an object cost a sixth of it (issue 16).
    insertClientMessage: db.prepare<[number, string, string | null, string | null, string | null, number]>(
      `INSERT INTO messages (id, chat_id, author, agent_id, type, text, media_json, external_id, delivery, created_at)
       VALUES (${nextId('messages')}, ?, 'client', NULL, ?, ?, ?, ?, 'delivered', ?)`,
    ),
    markDelivered: db.prepare("UPDATE messages SET delivery = 'delivered' WHERE id = ?"),
    agentName: db.prepare<[number], string>('SELECT name FROM agents WHERE id = ?').pluck(),
    setLastMessage: db.prepare('UPDATE chats SET last_message_id = ?, last_activity_at = ? WHERE id = ?'),
    // An agent who answers a free chat takes it, from the queue or from the bot.
    assignIfFree: db.prepare(
      "UPDATE chats SET assigned_agent_id = ?, state = 'open' WHERE id = ? AND assigned_agent_id IS NULL AND state IN ('open', 'bot')",
    ),
    assign: db.prepare("UPDATE chats SET assigned_agent_id = ?, state = 'open' WHERE id = ? AND state != 'closed'"),
    setCrm: db.prepare('UPDATE chats SET crm_json = ? WHERE id = ?'),
    setRate: db.prepare('UPDATE chats SET rate = ? WHERE id = ?'),
    countByClient: db.prepare<[number], number>('SELECT COUNT(*) FROM chats WHERE client_id = ?').pluck(),
    close: db.prepare("UPDATE chats SET state = 'closed', closed_at = ?, blacklisted = ? WHERE id = ? AND state != 'closed'"),
    idle: db
      .prepare<[number, number, number], number>(
        "SELECT id FROM chats WHERE channel_id = ? AND state != 'closed' AND last_activity_at <= ? ORDER BY last_activity_at LIMIT ?",
      )
      .pluck(),
    closeIdle: db.prepare("UPDATE chats SET state = 'closed', closed_at = ? WHERE id = ? AND state != 'closed' AND last_activity_at <= ?"),
    blockClient: db.prepare('UPDATE clients SET blacklisted = ? WHERE id = (SELECT client_id FROM chats WHERE id = ?)'),
    idempotent: db.prepare<[number, string, number], { response_json: string }>(
      'SELECT response_json FROM idempotency_keys WHERE channel_id = ? AND key = ? AND created_at > ?',
    ),
    rememberKey: db.prepare('INSERT OR REPLACE INTO idempotency_keys (channel_id, key, response_json, created_at) VALUES (?, ?, ?, ?)'),
    forgetKeys: db.prepare('DELETE FROM idempotency_keys WHERE created_at <= ?'),
  };

  /** The client of `existing` (as `lookup` reads it), created or its profile updated as `c` says. */
  const upsertClient = <Row extends IntakeClient>(
    lookup: Statement<[number, string], Row>,
    existing: Row | undefined,
    channelId: number,
    c: NewClientMessage['client'],
    now: number,
    refuseBlocked = false,
  ) => {
    // Refused before anything is written: a throw after a write makes the group commit run its batch again.
    if (refuseBlocked && existing?.blacklisted === 1) throw new ClientBlocked();
    if (!existing) {
      const row = { channelId, key: c.key, idJson: JSON.stringify(c.id), now, ...nullProfile(c.profile) };
      q.insertClient.run(row);
      return { client: lookup.get(channelId, c.key)!, changed: true };
    }
    const changes = profileColumns.filter((k) => c.profile[k] !== undefined && c.profile[k] !== existing[k]);
    if (changes.length === 0) return { client: existing, changed: false };
    const sets = changes.map((k) => `${k} = @${k}`).join(', ');
    db.prepare(`UPDATE clients SET ${sets}, updated_at = @now WHERE id = @id`).run({ ...c.profile, now, id: existing.id });
    return { client: lookup.get(channelId, c.key)!, changed: true };
  };

  const clientWidth = clientColumns.length;
  const liveChatColumns = q.intakeRows
    .columns()
    .slice(clientWidth)
    .map((column) => column.name);
  /** The client a customer's message comes from and its live chat, when there are. */
  const intakeRows = (channelId: number, key: string): { client?: ClientRow; live?: LiveChatRow } => {
    const values = q.intakeRows.get(channelId, key);
    if (!values) return {};
    const client = fields<ClientRow>(clientColumns, values, 0);
    return { client, live: values[clientWidth] === null ? undefined : fields<LiveChatRow>(liveChatColumns, values, clientWidth) };
  };

  // Runs only through the group commit, which makes it atomic (a write that throws is undone with its batch and
  // runs again alone in a savepoint): a transaction of its own would add a savepoint to every customer message,
  // the hottest write of the service.
  const appendClientMessage = (input: NewClientMessage): ClientMessageResult => {
    const now = Date.now();
    if (input.idempotencyKey !== undefined) {
      const seen = q.idempotent.get(input.channelId, input.idempotencyKey, now - IDEMPOTENCY_WINDOW_MS);
      if (seen) return { replayed: true, ...(JSON.parse(seen.response_json) as { chatId: number; messageId: number }) };
    }
    const found = intakeRows(input.channelId, input.client.key);
    const { client, changed } = upsertClient(q.intakeClient, found.client, input.channelId, input.client, now, true);
    const live = found.live;
    let chatId = live?.id;
    const chatCreated = chatId === undefined;
    if (chatId === undefined) {
      const state = input.botProviderRowId === null ? 'open' : 'bot';
      const row = { channelId: input.channelId, clientId: client.id, state, botProviderId: input.botProviderRowId, now };
      chatId = Number(q.insertChat.run(row).lastInsertRowid);
      q.clearPendingDepartment.run(client.id);
    }
    const m = input.message;
    const media = mediaJson(m.media);
    const messageId = Number(q.insertClientMessage.run(chatId, m.type, m.text, media, m.externalId, now).lastInsertRowid);
    q.setLastMessage.run(messageId, now, chatId);
    if (input.idempotencyKey !== undefined) {
      q.rememberKey.run(input.channelId, input.idempotencyKey, JSON.stringify({ chatId, messageId }), now);
    }
    // The message as a read of its row would give it (toMessage), without reading it back.
    const message = toMessage({
      id: messageId,
      chat_id: chatId,
      author: 'client',
      agent_id: null,
      type: m.type,
      text: m.text,
      media_json: media,
      external_id: m.externalId,
      delivery: 'delivered',
      error: null,
      created_at: now,
    });
    // A new chat is read again: its department and the client's pending one changed with it.
    const chat = live
      ? toChatWith(live, {
          department: live.department_json === null ? null : (JSON.parse(live.department_json) as DepartmentRef),
          client: toClient(client),
          lastMessage: message,
        })
      : { ...toChat(chatRow.intake(chatId)!), lastMessage: message };
    const forward = input.forward?.({ chat, message }) ?? null;
    if (forward) insertDelivery(db, { ...forward, chatId, messageId: null }, now);
    return { replayed: false, chat, message, chatCreated, clientChanged: changed && !chatCreated, forwarded: forward !== null };
  };

  const updateClientProfile = db.transaction((channelId: number, c: NewClientMessage['client']) => {
    const { client, changed } = upsertClient(q.client, q.client.get(channelId, c.key), channelId, c, Date.now());
    return { client: toClient(client), changed, liveChatId: q.liveChat.get(client.id)?.id ?? null };
  });

  /** AGENT_JOINED goes to the chat's bot once, with whatever gave the chat its agent. */
  const notifyJoined = (chatId: number, joined: NewDelivery | null) => {
    if (joined && q.markJoined.run(chatId).changes === 1) insertDelivery(db, { ...joined, chatId, messageId: null }, Date.now());
  };

  // Like appendClientMessage, atomic through the group commit (or the caller's transaction), not a transaction
  // of its own: that was one more savepoint per agent message (issue 16).
  const appendAgentMessage = (input: NewAgentMessage) => {
    const now = Date.now();
    const m = input.message;
    const author = input.author ?? 'agent';
    const media = mediaJson(m.media);
    const messageId = Number(q.insertAgentMessage.run(input.chatId, author, input.agentId, m.type, m.text, media, now).lastInsertRowid);
    q.setLastMessage.run(messageId, now, input.chatId);
    // The agent who answers an unassigned chat takes it, as the Reply action would.
    if (input.agentId !== null && q.assignIfFree.run(input.agentId, input.chatId).changes === 1)
      notifyJoined(input.chatId, input.joined ?? null);
    const delivery = input.delivery(messageId);
    let state: MessageRecord['delivery'] = 'pending';
    let error: string | null = null;
    if (delivery === null) {
      q.markDelivered.run(messageId);
      state = 'delivered';
    } else if ('notSent' in delivery) {
      q.markFailed.run(delivery.notSent, messageId);
      state = 'failed';
      error = delivery.notSent;
    } else insertDelivery(db, { ...delivery, chatId: input.chatId, messageId }, now);
    // The message as a read of its row would give it, without reading it back; the chat without its last message.
    const message = toMessage({
      id: messageId,
      chat_id: input.chatId,
      author,
      agent_id: input.agentId,
      agent_name: input.agentId === null ? null : (input.agentName ?? q.agentName.get(input.agentId) ?? null),
      type: m.type,
      text: m.text,
      media_json: media,
      external_id: null,
      delivery: state,
      error,
      created_at: now,
    });
    return { chat: { ...toChat(chatRow.intake(input.chatId)!), lastMessage: message }, message };
  };

  return {
    async appendClientMessage(input: NewClientMessage): Promise<ClientMessageResult> {
      return writes.run(() => appendClientMessage(input));
    },
    async forgetIdempotencyKeys(now = Date.now()): Promise<number> {
      return q.forgetKeys.run(now - IDEMPOTENCY_WINDOW_MS).changes;
    },
    async updateClientProfile(
      channelId: number,
      client: NewClientMessage['client'],
    ): Promise<{ client: ClientRecord; changed: boolean; liveChatId: number | null }> {
      return writes.run(() => updateClientProfile(channelId, client));
    },
    async appendAgentMessage(input: NewAgentMessage): Promise<{ chat: ChatRecord; message: MessageRecord }> {
      return writes.run(() => appendAgentMessage(input));
    },
    async findById(id: number): Promise<ChatRecord | undefined> {
      const row = chatRow.byId(id);
      return row && toChat(row);
    },
    async findForAgent(chatId: number, agentId: number): Promise<ChatRecord | undefined> {
      const row = chatRow.forAgent(chatId, agentId);
      return row && toChat(row);
    },
    async listForAgent(agentId: number, state: ChatState, limit: number, from: InboxPosition | null): Promise<InboxPage> {
      const asOf = from?.asOf ?? q.newestMessageId.get()!;
      const rows = q.inboxPage.all({
        agentId,
        state,
        asOf,
        key: from?.lastMessageId ?? INBOX_START,
        chatId: from?.chatId ?? INBOX_START,
        limit: limit + 1,
      });
      const chats = q.byIds.all(JSON.stringify(rows.map((r) => r.id))).map(toChat);
      return inboxPage(rows, chats, limit, asOf, q.inboxCount.get({ agentId, state })!);
    },
    async assign(chatId: number, agentId: number, joined: NewDelivery | null = null): Promise<boolean> {
      return writes.run(() =>
        db.transaction(() => {
          if (q.assign.run(agentId, chatId).changes !== 1) return false;
          notifyJoined(chatId, joined);
          return true;
        })(),
      );
    },
    async close(chatId: number, blacklist: boolean, closedNotices: readonly NewDelivery[] = []): Promise<boolean> {
      return writes.run(() =>
        db.transaction(() => {
          const closed = q.close.run(Date.now(), blacklist ? 1 : 0, chatId).changes === 1;
          if (closed && blacklist) q.blockClient.run(1, chatId);
          if (closed) for (const notice of closedNotices) insertDelivery(db, { ...notice, chatId, messageId: null }, Date.now());
          return closed;
        })(),
      );
    },
    async listIdle(channelId: number, idleSince: number, limit: number): Promise<number[]> {
      return q.idle.all(channelId, idleSince, limit);
    },
    async closeIdle(chatId: number, idleSince: number, note: string, closedNotices: readonly NewDelivery[] = []) {
      return writes.run(() =>
        db.transaction(() => {
          const now = Date.now();
          if (q.closeIdle.run(now, chatId, idleSince).changes !== 1) return undefined;
          for (const notice of closedNotices) insertDelivery(db, { ...notice, chatId, messageId: null }, now);
          const system = { type: 'text' as const, text: note, media: {} };
          return appendAgentMessage({ chatId, agentId: null, author: 'system', message: system, delivery: () => null });
        })(),
      );
    },
    async handOver(chatId: number, note: string): Promise<{ chat: ChatRecord; message: MessageRecord } | undefined> {
      return writes.run(() =>
        db.transaction(() => {
          if (q.handOver.run(chatId).changes !== 1) return undefined;
          const system = { type: 'text' as const, text: note, media: {} };
          return appendAgentMessage({ chatId, agentId: null, author: 'system', message: system, delivery: () => null });
        })(),
      );
    },
    async setCrm(chatId: number, crm: CrmView): Promise<void> {
      await writes.run(() => q.setCrm.run(JSON.stringify(crm), chatId));
    },
    async setDepartment(chatId: number, departmentId: number | null): Promise<boolean> {
      return writes.run(() => q.setDepartment.run(departmentId, chatId).changes === 1);
    },
    async setRate(chatId: number, rate: 'positive' | 'negative'): Promise<void> {
      await writes.run(() => q.setRate.run(rate, chatId));
    },
    async countByClient(clientId: number): Promise<number> {
      return q.countByClient.get(clientId) ?? 0;
    },
    async unblockClient(chatId: number): Promise<void> {
      await writes.run(() => q.blockClient.run(0, chatId));
    },
  };
}
