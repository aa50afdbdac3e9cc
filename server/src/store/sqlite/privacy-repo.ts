import type { Db } from './db.ts';
import type { WalCheckpointer } from './wal-checkpointer.ts';
import type { WriteBatcher } from './write-batcher.ts';
import {
  countChatsSql,
  eraseChatsSql,
  mediaOfChatsSql,
  addCounts,
  byChannel,
  noneErased,
  toErasure,
  type ErasureCounts,
  type ErasedExpired,
  type ErasedClient,
  type PrivacyRepo,
} from '../privacy.ts';

type Row = Record<string, unknown>;

export function createPrivacyRepo(db: Db, writes: WriteBatcher, checkpointer?: WalCheckpointer): PrivacyRepo {
  const ofClient = 'SELECT id FROM chats WHERE client_id = @client';
  const ofList = 'SELECT value FROM json_each(@ids)';
  const q = {
    client: db.prepare<{ channel: number; key: string }, Row>('SELECT * FROM clients WHERE channel_id = @channel AND external_key = @key'),
    chats: db.prepare<{ client: number }, Row>('SELECT * FROM chats WHERE client_id = @client ORDER BY id'),
    messages: db.prepare<{ client: number }, Row>(`SELECT * FROM messages WHERE chat_id IN (${ofClient}) ORDER BY id`),
    calls: db.prepare<{ client: number }, Row>(`SELECT * FROM calls WHERE client_id = @client OR chat_id IN (${ofClient}) ORDER BY id`),
    offline: db.prepare<{ client: number }, Row>('SELECT * FROM offline_messages WHERE client_id = @client ORDER BY id'),
    countClient: db.prepare<{ client: number }, { messages: number; deliveries: number; calls: number }>(countChatsSql(ofClient)),
    countList: db.prepare<{ ids: string }, { messages: number; deliveries: number; calls: number }>(countChatsSql(ofList)),
    mediaClient: db.prepare<{ client: number }, string>(mediaOfChatsSql(ofClient)).pluck(),
    mediaList: db.prepare<{ ids: string }, string>(mediaOfChatsSql(ofList)).pluck(),
    eraseClientChats: eraseChatsSql(ofClient).map((sql) => db.prepare(sql)),
    eraseListChats: eraseChatsSql(ofList).map((sql) => db.prepare(sql)),
    eraseCalls: db.prepare('DELETE FROM calls WHERE client_id = @client'),
    eraseOffline: db.prepare('DELETE FROM offline_messages WHERE client_id = @client'),
    eraseClient: db.prepare('DELETE FROM clients WHERE id = @client'),
    expired: db.prepare<[number, number], { id: number; channel_id: number }>(
      `SELECT ch.id, ch.channel_id FROM channels c JOIN chats ch ON ch.channel_id = c.id AND ch.state = 'closed' AND ch.closed_at < ? - c.retention_ms
       WHERE c.retention_ms IS NOT NULL LIMIT ?`,
    ),
    audit: db.prepare(
      'INSERT INTO erasures (channel_id, client_key, reason, actor, counts_json, created_at, completed_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    erasures: db.prepare<[number], Parameters<typeof toErasure>[0]>('SELECT * FROM erasures ORDER BY id DESC LIMIT ?'),
  };
  // Erased pages are overwritten in the file (secure_delete, set in db.ts); the WAL still holds the rows as
  // they were written until a checkpoint copies it back and truncates it. An in-memory database has no WAL.
  const purgeWal = async () => (checkpointer ? checkpointer.purge() : true);
  // Pending until the WAL is emptied (completePendingErasures, run by the checkpointer); an in-memory database has
  // no files to hold the erased text.
  const completedAt = (at: number) => (checkpointer ? null : at);

  return {
    async exportClient(channelId, clientKey) {
      const client = q.client.get({ channel: channelId, key: clientKey });
      if (!client) return undefined;
      const p = { client: client.id as number };
      return { client, chats: q.chats.all(p), messages: q.messages.all(p), calls: q.calls.all(p), offlineMessages: q.offline.all(p) };
    },

    async eraseClient(channelId, clientKey, actor) {
      const erased = await writes.run((): ErasedClient | undefined => {
        const client = q.client.get({ channel: channelId, key: clientKey });
        if (!client) return undefined;
        const p = { client: client.id as number };
        const related = q.countClient.get(p)!;
        const chatIds = q.chats.all(p).map((chat) => chat.id as number);
        const media = q.mediaClient.all(p);
        const counts: ErasureCounts = {
          clients: 1,
          chats: chatIds.length,
          messages: related.messages,
          deliveries: related.deliveries,
          calls: related.calls,
          offline_messages: 0,
          files: 0,
        };
        for (const statement of q.eraseClientChats) statement.run(p);
        counts.calls += q.eraseCalls.run(p).changes;
        counts.offline_messages = q.eraseOffline.run(p).changes;
        q.eraseClient.run(p);
        const at = Date.now();
        q.audit.run(channelId, clientKey, 'request', actor, JSON.stringify(counts), at, completedAt(at));
        return { counts, media, clientId: p.client, chatIds };
      });
      return erased && { ...erased, walPending: !(await purgeWal()) };
    },

    async eraseExpiredChats(now, limit) {
      const erased = await writes.run((): ErasedExpired => {
        const total = noneErased();
        const media: string[] = [];
        const chats: ErasedExpired['chats'] = [];
        for (const [channelId, ids] of byChannel(q.expired.all(now, limit))) {
          chats.push({ channelId, chatIds: ids });
          const p = { ids: JSON.stringify(ids) };
          const counts = { ...noneErased(), chats: ids.length, ...q.countList.get(p)! };
          media.push(...q.mediaList.all(p));
          for (const statement of q.eraseListChats) statement.run(p);
          q.audit.run(channelId, null, 'retention', 'retention', JSON.stringify(counts), now, completedAt(now));
          addCounts(total, counts);
        }
        return { counts: total, media, chats };
      });
      return erased.counts.chats > 0 ? { ...erased, walPending: !(await purgeWal()) } : erased;
    },

    async listErasures(limit) {
      return q.erasures.all(limit).map(toErasure);
    },
  };
}

/** What the node is told when erasures that waited for a reader of the database's files became complete. */
export interface ErasuresCompleted {
  count: number;
  /** When the oldest of them was made (ms). */
  pendingSince: number;
}

/**
 * Records every pending erasure as complete: the checkpointer runs it right after it emptied the WAL, so each of
 * them was committed before, and no file of the database holds their text any more (secure_delete overwrote the
 * pages the rows were in). `late`: some erasure had answered 202 meanwhile, or the node just started.
 */
export function completePendingErasures(db: Db, onCompleted: (completed: ErasuresCompleted) => void = () => undefined) {
  const complete = db
    .prepare<[number], number>('UPDATE erasures SET completed_at = ? WHERE completed_at IS NULL RETURNING created_at')
    .pluck();
  return (late: boolean) => {
    const made = complete.all(Date.now());
    if (late && made.length > 0) onCompleted({ count: made.length, pendingSince: made.reduce((a, b) => Math.min(a, b)) });
  };
}
