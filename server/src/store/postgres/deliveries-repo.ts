import pg from 'pg';
import type { DeliveryRecord } from '../records.ts';
import {
  afterAttempt,
  attemptError,
  loggedAnswer,
  PER_CHANNEL_IN_FLIGHT,
  receiverOf,
  receiverSql,
  toDelivery,
  type AttemptLog,
  type AttemptOutcome,
  type DeliveriesRepo,
  type DeliveryRow,
  type FinishedAttempt,
} from '../deliveries.ts';
import { insertPgDelivery } from './insert-delivery.ts';
import type { PgDb, PgSql } from './pg-db.ts';

// Only the oldest pending row of each ordering key is due: per-chat order holds even across retries. A row
// keeps `state = 'pending'` while it is claimed, so the rows behind it stay blocked on every node. Rows that
// another node is claiming or recording right now are locked: skip them rather than wait.
//
// Two ways to find the heads, same rows. The walk goes through the due rows in order and asks each whether it is
// its key's lowest pending id (one probe of an index): it stops once it has enough, cheap when heads are many. When
// they are few (a key's backlog behind each, as with a channel's webhooks) it walks every due row; grouping the
// pending rows by key once is then cheaper. (An anti-join on e.id < d.id, the first way, was planned as a hash join
// that compared each row with every row of its key: quadratic in a key's backlog.)
const dueSql = `SELECT d.* FROM deliveries d
  WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until < $1)
    AND d.id = (SELECT MIN(e.id) FROM deliveries e WHERE e.ordering_key = d.ordering_key AND e.state = 'pending')
  ORDER BY d.next_attempt_at, d.id LIMIT $2
  FOR UPDATE OF d SKIP LOCKED`;
// The heads are grouped once (a plan that joined each row with the grouping did it again per row: 200 ms a claim).
const headsCte = `heads AS MATERIALIZED (SELECT MIN(id) AS id FROM deliveries WHERE state = 'pending' GROUP BY ordering_key)`;
const dueByKeySql = `WITH ${headsCte} SELECT d.* FROM heads h JOIN deliveries d ON d.id = h.id
  WHERE d.state = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until < $1)
  ORDER BY d.next_attempt_at, d.id LIMIT $2
  FOR UPDATE OF d SKIP LOCKED`;

// Only heads of their ordering key count; a leased head is due again when its lease ends. The heads are found
// by grouping (one pass over the pending rows): an anti-join on e.id < d.id compared each row with every row
// of its key, quadratic in a key's backlog (8 ms for 8 keys of 125 rows). `d.state = 'pending'` (true of every
// head) lets the join use the pending rows' index: without it, a backlog made it merge with the whole primary key.
const nextDueSql = `WITH ${headsCte} SELECT MIN(GREATEST(d.next_attempt_at, COALESCE(d.lease_until, 0)))
  FROM heads h JOIN deliveries d ON d.id = h.id WHERE d.state = 'pending'`;

/** The namespace of the transaction locks that make one claim at a time count a channel's rows in flight. */
const CHANNEL_CLAIM_LOCK = 0x5c_de_1;

const lastOfMessage = (sql: PgSql, messageId: number) =>
  sql.one<DeliveryRow>('SELECT * FROM deliveries WHERE message_id = $1 ORDER BY id DESC LIMIT 1', [messageId]);
// A resend and a replay of one message take this lock before reading its last delivery, so only one sends it again.
const lockMessage = (sql: PgSql, messageId: number) => sql.run('SELECT 1 FROM messages WHERE id = $1 FOR NO KEY UPDATE', [messageId]);
const setMessagePending = (sql: PgSql, messageId: number) =>
  sql.run("UPDATE messages SET delivery = 'pending', error = NULL WHERE id = $1 AND delivery = 'failed'", [messageId]);

// The rows after each head, to follow it in one run when they can (see `followers`).
const afterHeadsSql = `SELECT h.id AS head_id, n.* FROM deliveries h CROSS JOIN LATERAL (
    SELECT n.* FROM deliveries n WHERE n.ordering_key = h.ordering_key AND n.state = 'pending' AND n.id > h.id ORDER BY n.id LIMIT $2
  ) n
  WHERE h.id = ANY($1::bigint[]) ORDER BY h.id, n.id`;

/** The rows of `after`'s key that may follow it at once, in order: each pending, due, free and of its channel,
 * with none before it that may not. */
function followers(after: Pick<DeliveryRow, 'channel_id'>, rows: (DeliveryRow & { lease_until: number | null })[], now: number) {
  const run: DeliveryRow[] = [];
  for (const r of rows) {
    if (r.channel_id !== after.channel_id || r.next_attempt_at > now || (r.lease_until ?? 0) >= now) break;
    run.push(r);
  }
  return run;
}

// A worker tops up the run of a key it holds: the rows after `afterId` while they may follow at once, when every
// pending row of the key up to `afterId` is still its own (it has not lost the key to another worker). Rows are
// locked, so a claim of another node waits for this one and then finds them leased.
const claimAfterSql = `
  WITH mine AS (
    SELECT bool_and(claimed_by = $1 AND lease_until >= $5) AS ok FROM deliveries
    WHERE ordering_key = $2 AND state = 'pending' AND id <= $4
  ),
  cand AS (
    SELECT id, channel_id, next_attempt_at, lease_until FROM deliveries
    WHERE ordering_key = $2 AND state = 'pending' AND id > $4 ORDER BY id LIMIT $7
    FOR UPDATE
  ),
  run AS (
    SELECT c.id FROM cand c WHERE (SELECT ok FROM mine) IS NOT FALSE AND NOT EXISTS (
      SELECT 1 FROM cand b WHERE b.id <= c.id AND (b.channel_id != $3 OR b.next_attempt_at > $5 OR COALESCE(b.lease_until, 0) >= $5)
    )
  )
  UPDATE deliveries d SET claimed_by = $1, lease_until = $5::bigint + $6::bigint FROM run WHERE d.id = run.id RETURNING d.*`;

/** Whether the last claim found fewer heads than it looked for (see `dueSql`): the next one then groups by key. */
type DueScan = { fewHeads: boolean };

async function claimDue(
  sql: PgSql,
  scan: DueScan,
  workerId: string,
  now: number,
  leaseMs: number,
  limit: number,
  perKey = 1,
): Promise<DeliveryRecord[]> {
  const due = await sql.all<DeliveryRow>(scan.fewHeads ? dueByKeySql : dueSql, [now, limit * 4]);
  scan.fewHeads = due.length < limit * 4;
  if (due.length === 0) return [];
  // The cap holds across nodes: whoever counts a channel's rows in flight holds its lock until the claims are
  // committed. Taken in channel order, so two claims never wait on each other in a circle; all of them in one
  // statement (an array is unnested in its order), not one round trip per channel.
  const channels = [...new Set(due.map((r) => r.channel_id))].sort((a, b) => a - b);
  await sql.run(
    `SELECT pg_advisory_xact_lock($1, (c.id % 2147483648)::int)
     FROM (SELECT id FROM unnest($2::bigint[]) WITH ORDINALITY AS u(id, n) ORDER BY n) c`,
    [CHANNEL_CLAIM_LOCK, channels],
  );
  // Keys in flight, not rows: a worker may hold a run of several rows of one key.
  const inFlight = await sql.all<{ receiver: string; n: number }>(
    `SELECT ${receiverSql} AS receiver, COUNT(DISTINCT ordering_key) AS n FROM deliveries
     WHERE state = 'pending' AND lease_until >= $1 AND channel_id = ANY($2::bigint[]) GROUP BY receiver`,
    [now, channels],
  );
  const busy = new Map(inFlight.map((r) => [r.receiver, r.n]));
  const picked: DeliveryRow[] = [];
  for (const r of due) {
    if (picked.length === limit) break;
    const receiver = receiverOf(r);
    const n = busy.get(receiver) ?? 0;
    if (n >= PER_CHANNEL_IN_FLIGHT) continue;
    busy.set(receiver, n + 1);
    picked.push(r);
  }
  if (picked.length === 0) return [];
  let claimed = picked;
  if (perKey > 1) {
    const after = await sql.all<DeliveryRow & { head_id: number; lease_until: number | null }>(afterHeadsSql, [
      picked.map((r) => r.id),
      perKey - 1,
    ]);
    claimed = picked.flatMap((head) => [
      head,
      ...followers(
        head,
        after.filter((r) => r.head_id === head.id),
        now,
      ),
    ]);
  }
  // Heads are locked by this transaction; followers were read unlocked, so one another worker leased meanwhile
  // (its run topped up) stays its own, and a run ends before it.
  const taken = new Set(
    (
      await sql.all<{ id: number }>(
        `UPDATE deliveries SET claimed_by = $1, lease_until = $2 WHERE id = ANY($3::bigint[])
           AND state = 'pending' AND (lease_until IS NULL OR lease_until < $4) RETURNING id`,
        [workerId, now + leaseMs, claimed.map((r) => r.id), now],
      )
    ).map((r) => Number(r.id)),
  );
  const heads = new Set(picked.map((r) => Number(r.id)));
  const run: DeliveryRow[] = [];
  const behindGap: number[] = [];
  let broken = false;
  for (const r of claimed) {
    if (heads.has(Number(r.id))) broken = false;
    const mine = taken.has(Number(r.id));
    if (mine && !broken) run.push(r);
    else {
      broken = true;
      if (mine) behindGap.push(r.id);
    }
  }
  if (behindGap.length > 0)
    await sql.run('UPDATE deliveries SET claimed_by = NULL, lease_until = NULL WHERE id = ANY($1::bigint[])', [behindGap]);
  return run.map(toDelivery);
}

/**
 * The records of many attempts in one statement (its own transaction, one round trip, one commit): each row,
 * locked if its worker still holds it; the attempt logged; the row finished, or due again; the carried
 * message's state. Rows of one ordering key come in one batch only as a worker's run, in order.
 */
const recordAttemptsSql = `
  WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::bigint[], $7::text[], $8::bigint[])
      AS i(id, worker_id, result, status, error, duration_ms, answer, retry_at)
  ),
  cur AS (
    SELECT d.*, i.worker_id AS in_worker, i.result AS in_result, i.status AS in_status, i.error AS in_error,
      i.duration_ms AS in_duration_ms, i.answer AS in_answer, i.retry_at AS in_retry_at
    FROM deliveries d JOIN input i ON d.id = i.id
    WHERE d.claimed_by = i.worker_id AND d.state = 'pending'
    ORDER BY d.id
    FOR UPDATE OF d
  ),
  calc AS (
    SELECT cur.*, CASE WHEN cur.in_result = 'delivered' THEN 'delivered'
                       WHEN cur.in_result = 'failed' OR cur.attempts + 1 >= cur.max_attempts THEN 'failed'
                       ELSE 'pending' END AS new_state
    FROM cur
  ),
  logged AS (
    INSERT INTO delivery_attempts (delivery_id, status, error, finished_at, duration_ms, answer)
    SELECT id, in_status, in_error, $9::bigint, in_duration_ms, in_answer FROM calc ORDER BY id
  ),
  finished AS (
    UPDATE deliveries d SET state = calc.new_state, attempts = d.attempts + 1, last_error = calc.in_error, last_status = calc.in_status,
      next_attempt_at = CASE WHEN calc.in_result = 'retry' AND calc.new_state = 'pending' THEN calc.in_retry_at ELSE d.next_attempt_at END,
      claimed_by = NULL, lease_until = NULL, finished_at = CASE WHEN calc.new_state = 'pending' THEN NULL ELSE $9::bigint END
    FROM calc WHERE d.id = calc.id
    RETURNING calc.in_worker AS recorded_by, d.id, d.state, d.attempts, d.last_error, d.last_status, d.next_attempt_at,
      d.message_id, d.chat_id
  ),
  message AS (
    UPDATE messages SET delivery = calc.new_state, error = CASE WHEN calc.new_state = 'failed' THEN calc.in_error ELSE NULL END
    FROM calc WHERE messages.id = calc.message_id AND calc.chat_id IS NOT NULL AND calc.new_state != 'pending'
  )
  SELECT * FROM finished`;

interface AttemptToRecord {
  id: number;
  workerId: string;
  outcome: AttemptOutcome;
  log: AttemptLog;
  /** The row as the worker sent it: the finished delivery is built from it (no payload to parse again). */
  sent: DeliveryRecord;
}

async function recordAttempts(db: PgDb, batch: AttemptToRecord[]): Promise<(FinishedAttempt | undefined)[]> {
  const now = Date.now();
  const errorOf = (a: AttemptToRecord) => attemptError(a.outcome);
  type Recorded = Pick<
    DeliveryRow,
    'id' | 'state' | 'attempts' | 'last_error' | 'last_status' | 'next_attempt_at' | 'message_id' | 'chat_id'
  >;
  const rows = await db.all<Recorded & { recorded_by: string }>(recordAttemptsSql, [
    batch.map((a) => a.id),
    batch.map((a) => a.workerId),
    batch.map((a) => a.outcome.result),
    batch.map((a) => a.outcome.status),
    batch.map(errorOf),
    batch.map((a) => a.log.durationMs ?? null),
    batch.map((a) => loggedAnswer(a.log)),
    batch.map((a) => (a.outcome.result === 'retry' ? a.outcome.retryAt : null)),
    now,
  ]);
  // Keyed by row and worker: two workers of one process may both record a row (one of them lost its lease).
  const finished = new Map(rows.map((row) => [`${row.id}:${row.recorded_by}`, row]));
  return batch.map((a) => {
    const row = finished.get(`${a.id}:${a.workerId}`);
    if (!row) return undefined; // the lease ran out and another worker owns the row now
    const state = row.state;
    const message: FinishedAttempt['message'] =
      row.message_id !== null && row.chat_id !== null && state !== 'pending'
        ? { id: row.message_id, chatId: row.chat_id, delivery: state, error: state === 'failed' ? errorOf(a) : null }
        : null;
    const delivery = afterAttempt(a.sent, {
      state,
      attempts: row.attempts,
      lastError: row.last_error,
      lastStatus: row.last_status,
      nextAttemptAt: row.next_attempt_at,
    });
    return { delivery, message };
  });
}

/** Statements of records in flight at once. A record that finds fewer goes at once (alone, or with those that
 * came in the same tick); one that finds them all busy waits for the next to end and goes with every record
 * that waited meanwhile: under load N attempts cost one round trip and one commit, not N. */
const RECORDS_IN_FLIGHT = 2;
const MAX_RECORDS_PER_STATEMENT = 200;

function createAttemptRecorder(db: PgDb) {
  /** Records that commit together: one, or a run of one ordering key (in order, never split). */
  type Group = {
    attempts: AttemptToRecord[];
    resolve: (f: (FinishedAttempt | undefined)[]) => void;
    reject: (err: unknown) => void;
  };
  let queue: Group[] = [];
  let inFlight = 0;
  let scheduled = false;

  function pump() {
    scheduled = false;
    while (queue.length > 0 && inFlight < RECORDS_IN_FLIGHT) {
      let size = 0;
      let n = 0;
      while (n < queue.length && (n === 0 || size + queue[n]!.attempts.length <= MAX_RECORDS_PER_STATEMENT)) {
        size += queue[n]!.attempts.length;
        n++;
      }
      const groups = queue.slice(0, n);
      queue = queue.slice(n);
      inFlight++;
      recordAttempts(
        db,
        groups.flatMap((g) => g.attempts),
      )
        .then(
          (results) => {
            let at = 0;
            for (const g of groups) {
              g.resolve(results.slice(at, at + g.attempts.length));
              at += g.attempts.length;
            }
          },
          (err: unknown) => {
            // PostgreSQL refused the statement (a SQLSTATE: it rolled back): one record may be at fault, so each
            // group goes again alone and the others are not held back with it. A lost connection leaves unknown
            // whether it committed: those records fail, and their rows go again once their leases end.
            if (groups.length === 1 || !(err instanceof pg.DatabaseError)) return groups.forEach((g) => g.reject(err));
            for (const g of groups) recordAttempts(db, g.attempts).then(g.resolve, g.reject);
          },
        )
        .finally(() => {
          inFlight--;
          pump();
        });
    }
  }

  return (attempts: AttemptToRecord[]) =>
    new Promise<(FinishedAttempt | undefined)[]>((resolve, reject) => {
      queue.push({ attempts, resolve, reject });
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(pump);
    });
}

const copyOf = (row: DeliveryRow, replayOf?: number) => ({
  kind: row.kind,
  channelId: row.channel_id,
  chatId: row.chat_id,
  messageId: row.message_id,
  url: row.url,
  payload: JSON.parse(row.payload_json) as unknown,
  maxAttempts: row.max_attempts,
  orderingKey: row.ordering_key,
  eventId: row.event_id,
  replayOf,
});

async function replay(sql: PgSql, ids: number[]): Promise<DeliveryRecord[]> {
  // Two nodes replaying one delivery wait for each other here; the second then finds the first's replay.
  await sql.run('SELECT id FROM deliveries WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [ids]);
  const created: DeliveryRecord[] = [];
  for (const id of ids) {
    const row = await sql.one<DeliveryRow>('SELECT * FROM deliveries WHERE id = $1', [id]);
    if (!row || row.state !== 'failed') continue;
    if ((await sql.value<number>('SELECT id FROM deliveries WHERE replay_of = $1 LIMIT 1', [id])) !== undefined) continue;
    if (row.message_id !== null) {
      await lockMessage(sql, row.message_id);
      // Only the message's latest delivery may send it again (an agent's resend may have come first).
      if ((await lastOfMessage(sql, row.message_id))?.id !== row.id) continue;
      await setMessagePending(sql, row.message_id);
    }
    const newId = await insertPgDelivery(sql, copyOf(row, row.id), Date.now());
    created.push(toDelivery((await sql.one<DeliveryRow>('SELECT * FROM deliveries WHERE id = $1', [newId]))!));
  }
  return created;
}

export function createPgDeliveriesRepo(db: PgDb): DeliveriesRepo {
  const recordAttempts = createAttemptRecorder(db);
  const dueScan: DueScan = { fewHeads: false };
  return {
    async enqueue(d) {
      return db.tx((sql) => insertPgDelivery(sql, d, Date.now()));
    },
    async requeueFailedMessage(messageId) {
      return db.tx(async (sql) => {
        await lockMessage(sql, messageId);
        const last = await lastOfMessage(sql, messageId);
        if (!last || last.state !== 'failed') return false;
        if ((await setMessagePending(sql, messageId)) !== 1) return false;
        await insertPgDelivery(sql, { ...copyOf(last), messageId }, Date.now());
        return true;
      });
    },
    async claimDue(workerId, now, leaseMs, limit, perKey) {
      return db.tx((sql) => claimDue(sql, dueScan, workerId, now, leaseMs, limit, perKey));
    },
    async claimAfter(workerId, key, now, leaseMs, limit) {
      const rows = await db.all<DeliveryRow>(claimAfterSql, [workerId, key.orderingKey, key.channelId, key.afterId, now, leaseMs, limit]);
      return rows.sort((a, b) => a.id - b.id).map(toDelivery);
    },
    async recordAttempts(workerId, attempts) {
      return recordAttempts(attempts.map(({ sent, outcome, log }) => ({ id: sent.id, workerId, outcome, log, sent })));
    },
    async release(workerId, ids) {
      await db.run(
        "UPDATE deliveries SET claimed_by = NULL, lease_until = NULL WHERE id = ANY($1::bigint[]) AND claimed_by = $2 AND state = 'pending'",
        [ids, workerId],
      );
    },
    async replay(ids) {
      return db.tx((sql) => replay(sql, ids));
    },
    async replayable(filter) {
      return db
        .all<{ id: number }>(
          `SELECT d.id FROM deliveries d WHERE d.channel_id = $1 AND d.state = 'failed' AND ($2::text IS NULL OR d.kind = $2)
           AND d.created_at >= $3 AND d.created_at < $4
           AND NOT EXISTS (SELECT 1 FROM deliveries r WHERE r.replay_of = d.id)
         ORDER BY d.id LIMIT $5`,
          [filter.channelId, filter.kind ?? null, filter.since, filter.until, filter.limit],
        )
        .then((rows) => rows.map((r) => r.id));
    },
    async findById(id) {
      const row = await db.one<DeliveryRow>('SELECT * FROM deliveries WHERE id = $1', [id]);
      return row && toDelivery(row);
    },
    async replaysOf(id) {
      return (await db.all<{ id: number }>('SELECT id FROM deliveries WHERE replay_of = $1', [id])).map((r) => r.id);
    },
    async releaseHeld(chatId, kind, change, now) {
      return db.tx(async (sql) => {
        // Locked, so a worker claiming the row once it falls due waits, and sees it released or not.
        const rows = await sql.all<DeliveryRow>(
          `SELECT * FROM deliveries WHERE chat_id = $1 AND kind = $2 AND state = 'pending' AND attempts = 0 AND claimed_by IS NULL
             AND next_attempt_at > $3 ORDER BY id FOR UPDATE`,
          [chatId, kind, now],
        );
        for (const row of rows) {
          const payload = change(JSON.parse(row.payload_json));
          if (payload === null) continue;
          await sql.run('UPDATE deliveries SET payload_json = $1, next_attempt_at = $2 WHERE id = $3', [
            JSON.stringify(payload),
            now,
            row.id,
          ]);
          return true;
        }
        return false;
      });
    },
    async nextDueAt() {
      return (await db.value<number | null>(nextDueSql)) ?? null;
    },
    async listByChat(chatId) {
      return (await db.all<DeliveryRow>('SELECT * FROM deliveries WHERE chat_id = $1 ORDER BY id', [chatId])).map(toDelivery);
    },
    async listByChannel(filter) {
      const rows = await db.all<DeliveryRow>(
        `SELECT * FROM deliveries WHERE channel_id = $1 AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR state = $3)
           AND id < $4 AND created_at >= $5 AND created_at < $6 ORDER BY id DESC LIMIT $7`,
        [
          filter.channelId,
          filter.kind ?? null,
          filter.state ?? null,
          filter.before ?? Number.MAX_SAFE_INTEGER,
          filter.since ?? 0,
          filter.until ?? Number.MAX_SAFE_INTEGER,
          filter.limit,
        ],
      );
      return rows.map(toDelivery);
    },
    async attempts(deliveryId) {
      const rows = await db.all<{
        status: number | null;
        error: string | null;
        finished_at: number;
        duration_ms: number | null;
        answer: string | null;
      }>('SELECT status, error, finished_at, duration_ms, answer FROM delivery_attempts WHERE delivery_id = $1 ORDER BY id', [deliveryId]);
      return rows.map((a) => ({ status: a.status, error: a.error, at: a.finished_at, durationMs: a.duration_ms, answer: a.answer }));
    },
  };
}
