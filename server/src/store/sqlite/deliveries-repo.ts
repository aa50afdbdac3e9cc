import type { Db } from './db.ts';
import { insertDelivery } from './insert-delivery.ts';
import type { WriteBatcher } from './write-batcher.ts';
import type { DeliveryRecord } from '../records.ts';
import {
  loggedAnswer,
  PER_CHANNEL_IN_FLIGHT,
  toDelivery,
  type AttemptRecord,
  type DeliveryRow,
  type DeliveryToInsert,
  type FinishedAttempt,
  type DeliveriesRepo,
  type SentAttempt,
  afterAttempt,
  receiverOf,
  receiverSql,
  settle,
} from '../deliveries.ts';

export function createDeliveriesRepo(db: Db, writes: WriteBatcher): DeliveriesRepo {
  const q = {
    // Only the oldest unfinished row of each ordering key is due: per-chat order holds even across retries.
    due: db.prepare<[number, number, number], DeliveryRow>(
      `SELECT d.* FROM deliveries d
       WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until < ?)
         AND NOT EXISTS (SELECT 1 FROM deliveries e WHERE e.ordering_key = d.ordering_key AND e.state = 'pending' AND e.id < d.id)
       ORDER BY d.next_attempt_at, d.id LIMIT ?`,
    ),
    claim: db.prepare('UPDATE deliveries SET claimed_by = ?, lease_until = ? WHERE id = ?'),
    byId: db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE id = ?'),
    finish: db.prepare(
      `UPDATE deliveries SET state = @state, attempts = attempts + 1, last_error = @error, last_status = @status,
         next_attempt_at = @nextAttemptAt, claimed_by = NULL, lease_until = NULL, finished_at = @finishedAt WHERE id = @id`,
    ),
    messageState: db.prepare('UPDATE messages SET delivery = ?, error = ? WHERE id = ?'),
    logAttempt: db.prepare(
      'INSERT INTO delivery_attempts (delivery_id, status, error, finished_at, duration_ms, answer) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    attemptsOf: db.prepare<
      [number],
      { status: number | null; error: string | null; finished_at: number; duration_ms: number | null; answer: string | null }
    >('SELECT status, error, finished_at, duration_ms, answer FROM delivery_attempts WHERE delivery_id = ? ORDER BY id'),
    // Only heads of their ordering key count; a leased head is due again when its lease ends.
    nextDue: db
      .prepare<[], number | null>(
        `SELECT MIN(MAX(d.next_attempt_at, COALESCE(d.lease_until, 0))) FROM deliveries d
         WHERE d.state = 'pending'
           AND NOT EXISTS (SELECT 1 FROM deliveries e WHERE e.ordering_key = d.ordering_key AND e.state = 'pending' AND e.id < d.id)`,
      )
      .pluck(),
    listByChat: db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE chat_id = ? ORDER BY id'),
    listByChannel: db.prepare<
      { channelId: number; kind: string | null; state: string | null; before: number; since: number; until: number; limit: number },
      DeliveryRow
    >(
      `SELECT * FROM deliveries WHERE channel_id = @channelId AND (@kind IS NULL OR kind = @kind) AND (@state IS NULL OR state = @state)
         AND id < @before AND created_at >= @since AND created_at < @until ORDER BY id DESC LIMIT @limit`,
    ),
    // Failed deliveries not replayed yet: a replay that failed again is itself the one to replay.
    replayable: db
      .prepare<{ channelId: number; kind: string | null; since: number; until: number; limit: number }, number>(
        `SELECT d.id FROM deliveries d WHERE d.channel_id = @channelId AND d.state = 'failed' AND (@kind IS NULL OR d.kind = @kind)
         AND d.created_at >= @since AND d.created_at < @until
         AND NOT EXISTS (SELECT 1 FROM deliveries r WHERE r.replay_of = d.id)
       ORDER BY d.id LIMIT @limit`,
      )
      .pluck(),
    replayOf: db.prepare<[number], number>('SELECT id FROM deliveries WHERE replay_of = ?').pluck(),
  };

  const lastOfMessage = db.prepare<[number], DeliveryRow>('SELECT * FROM deliveries WHERE message_id = ? ORDER BY id DESC LIMIT 1');
  const setMessagePending = db.prepare("UPDATE messages SET delivery = 'pending', error = NULL WHERE id = ? AND delivery = 'failed'");
  const requeueMessage = db.transaction((messageId: number): boolean => {
    const last = lastOfMessage.get(messageId);
    if (!last || last.state !== 'failed') return false;
    if (setMessagePending.run(messageId).changes !== 1) return false;
    insertDelivery(
      db,
      {
        kind: last.kind,
        channelId: last.channel_id,
        chatId: last.chat_id,
        messageId,
        url: last.url,
        payload: JSON.parse(last.payload_json),
        maxAttempts: last.max_attempts,
        orderingKey: last.ordering_key,
        eventId: last.event_id,
      },
      Date.now(),
    );
    return true;
  });

  const replay = db.transaction((ids: number[]): DeliveryRecord[] => {
    const created: DeliveryRecord[] = [];
    for (const id of ids) {
      const row = q.byId.get(id);
      if (!row || row.state !== 'failed' || q.replayOf.all(id).length > 0) continue;
      if (row.message_id !== null) {
        // Only the message's latest delivery may send it again (an agent's resend may have come first).
        if (lastOfMessage.get(row.message_id)?.id !== row.id) continue;
        setMessagePending.run(row.message_id);
      }
      const newId = insertDelivery(
        db,
        {
          kind: row.kind,
          channelId: row.channel_id,
          chatId: row.chat_id,
          messageId: row.message_id,
          url: row.url,
          payload: JSON.parse(row.payload_json),
          maxAttempts: row.max_attempts,
          orderingKey: row.ordering_key,
          eventId: row.event_id,
          replayOf: row.id,
        },
        Date.now(),
      );
      created.push(toDelivery(q.byId.get(newId)!));
    }
    return created;
  });

  const held = db.prepare<[number, string, number], DeliveryRow>(
    `SELECT * FROM deliveries WHERE chat_id = ? AND kind = ? AND state = 'pending' AND attempts = 0 AND claimed_by IS NULL
       AND next_attempt_at > ? ORDER BY id`,
  );
  const release = db.prepare('UPDATE deliveries SET payload_json = ?, next_attempt_at = ? WHERE id = ?');
  const releaseHeld = db.transaction((chatId: number, kind: string, change: (payload: unknown) => unknown, now: number): boolean => {
    for (const row of held.all(chatId, kind, now)) {
      const payload = change(JSON.parse(row.payload_json));
      if (payload === null) continue;
      release.run(JSON.stringify(payload), now, row.id);
      return true;
    }
    return false;
  });

  // Keys in flight, not rows: a worker may hold a run of several rows of one key. An expression, not a bare
  // `channel_id`: grouped by an index of the column, SQLite walked every delivery ever sent rather than the
  // pending rows' index.
  const inFlight = db.prepare<[number], { receiver: string; n: number }>(
    `SELECT ${receiverSql} AS receiver, COUNT(DISTINCT ordering_key) AS n FROM deliveries
     WHERE state = 'pending' AND lease_until >= ? GROUP BY receiver`,
  );
  const pendingAfter = db.prepare<[string, number, number], DeliveryRow & { lease_until: number | null; claimed_by: string | null }>(
    "SELECT * FROM deliveries WHERE ordering_key = ? AND state = 'pending' AND id > ? ORDER BY id LIMIT ?",
  );
  const notMine = db
    .prepare<[string, number, string, number], number>(
      `SELECT 1 FROM deliveries WHERE ordering_key = ? AND state = 'pending' AND id <= ?
         AND (claimed_by IS NOT ? OR lease_until < ?) LIMIT 1`,
    )
    .pluck();
  /** Claims the rows after `afterId` of a key that can follow at once: stops at the first that cannot. */
  function claimFollowing(workerId: string, row: DeliveryRow, now: number, leaseMs: number, limit: number): DeliveryRow[] {
    const run: DeliveryRow[] = [];
    if (limit <= 0) return run;
    for (const next of pendingAfter.all(row.ordering_key, row.id, limit)) {
      if (next.channel_id !== row.channel_id || next.next_attempt_at > now || (next.lease_until ?? 0) >= now) break;
      q.claim.run(workerId, now + leaseMs, next.id);
      run.push(next);
    }
    return run;
  }
  const claimDue = db.transaction((workerId: string, now: number, leaseMs: number, limit: number, perKey: number) => {
    const busy = new Map(inFlight.all(now).map((r) => [r.receiver, r.n]));
    const picked: DeliveryRow[] = [];
    for (const r of q.due.all(now, now, limit * 4)) {
      if (picked.length === limit) break;
      const receiver = receiverOf(r);
      const n = busy.get(receiver) ?? 0;
      if (n >= PER_CHANNEL_IN_FLIGHT) continue;
      busy.set(receiver, n + 1);
      picked.push(r);
    }
    const claimed: DeliveryRow[] = [];
    for (const r of picked) {
      q.claim.run(workerId, now + leaseMs, r.id);
      claimed.push(r, ...claimFollowing(workerId, r, now, leaseMs, perKey - 1));
    }
    return claimed.map(toDelivery);
  });
  const claimAfter = db.transaction(
    (workerId: string, key: { orderingKey: string; channelId: number; afterId: number }, now: number, leaseMs: number, limit: number) => {
      if (notMine.get(key.orderingKey, key.afterId, workerId, now) !== undefined) return [];
      const after = { ordering_key: key.orderingKey, channel_id: key.channelId, id: key.afterId } as DeliveryRow;
      return claimFollowing(workerId, after, now, leaseMs, limit).map(toDelivery);
    },
  );

  const ownedState = db.prepare<[number, string], { attempts: number; max_attempts: number; next_attempt_at: number }>(
    "SELECT attempts, max_attempts, next_attempt_at FROM deliveries WHERE id = ? AND claimed_by = ? AND state = 'pending'",
  );
  /** Runs inside the write batch's transaction, so the attempts of one call commit together. */
  function recordAttempts(workerId: string, attempts: SentAttempt[]): (FinishedAttempt | undefined)[] {
    const now = Date.now();
    return attempts.map(({ sent, outcome, log }) => {
      const row = ownedState.get(sent.id, workerId);
      if (!row) return undefined; // the lease ran out and another worker owns the row now
      const { state, error } = settle({ attempts: row.attempts, maxAttempts: row.max_attempts }, outcome);
      const nextAttemptAt = outcome.result === 'retry' && state === 'pending' ? outcome.retryAt : row.next_attempt_at;
      q.logAttempt.run(sent.id, outcome.status, error, now, log.durationMs ?? null, loggedAnswer(log));
      q.finish.run({ id: sent.id, state, error, status: outcome.status, nextAttemptAt, finishedAt: state === 'pending' ? null : now });
      let message: FinishedAttempt['message'] = null;
      if (sent.messageId !== null && sent.chatId !== null && state !== 'pending') {
        const messageError = state === 'failed' ? error : null;
        q.messageState.run(state, messageError, sent.messageId);
        message = { id: sent.messageId, chatId: sent.chatId, delivery: state, error: messageError };
      }
      const delivery = afterAttempt(sent, {
        state,
        attempts: row.attempts + 1,
        lastError: error,
        lastStatus: outcome.status,
        nextAttemptAt,
      });
      return { delivery, message };
    });
  }
  const giveBack = db.prepare(
    "UPDATE deliveries SET claimed_by = NULL, lease_until = NULL WHERE id = ? AND claimed_by = ? AND state = 'pending'",
  );

  return {
    async enqueue(d: DeliveryToInsert): Promise<number> {
      return writes.run(() => insertDelivery(db, d, Date.now()));
    },
    async requeueFailedMessage(messageId: number): Promise<boolean> {
      return writes.run(() => requeueMessage(messageId));
    },
    async claimDue(workerId: string, now: number, leaseMs: number, limit: number, perKey = 1): Promise<DeliveryRecord[]> {
      return writes.run(() => claimDue(workerId, now, leaseMs, limit, perKey));
    },
    async claimAfter(workerId, key, now, leaseMs, limit) {
      return writes.run(() => claimAfter(workerId, key, now, leaseMs, limit));
    },
    async recordAttempts(workerId, attempts) {
      return writes.run(() => recordAttempts(workerId, attempts));
    },
    async release(workerId, ids) {
      await writes.run(() => {
        for (const id of ids) giveBack.run(id, workerId);
      });
    },
    async replay(ids: number[]): Promise<DeliveryRecord[]> {
      return writes.run(() => replay(ids));
    },
    async replayable(filter) {
      return q.replayable.all({ ...filter, kind: filter.kind ?? null });
    },
    async findById(id: number): Promise<DeliveryRecord | undefined> {
      const row = q.byId.get(id);
      return row && toDelivery(row);
    },
    async replaysOf(id: number): Promise<number[]> {
      return q.replayOf.all(id);
    },
    async releaseHeld(chatId, kind, change, now) {
      return writes.run(() => releaseHeld(chatId, kind, change, now));
    },
    async nextDueAt(): Promise<number | null> {
      return q.nextDue.get() ?? null;
    },
    async listByChat(chatId: number): Promise<DeliveryRecord[]> {
      return q.listByChat.all(chatId).map(toDelivery);
    },
    async listByChannel(filter) {
      return q.listByChannel
        .all({
          channelId: filter.channelId,
          kind: filter.kind ?? null,
          state: filter.state ?? null,
          before: filter.before ?? Number.MAX_SAFE_INTEGER,
          since: filter.since ?? 0,
          until: filter.until ?? Number.MAX_SAFE_INTEGER,
          limit: filter.limit,
        })
        .map(toDelivery);
    },
    async attempts(deliveryId: number): Promise<AttemptRecord[]> {
      return q.attemptsOf
        .all(deliveryId)
        .map((a) => ({ status: a.status, error: a.error, at: a.finished_at, durationMs: a.duration_ms, answer: a.answer }));
    },
  };
}
