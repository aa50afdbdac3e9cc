import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { createPgOfflineMessagesRepo } from '../src/store/postgres/offline-messages-repo.ts';
import { openPgDb } from '../src/store/postgres/pg-db.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { recordPgStatements } from './support/pg-statements.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

// Issue 16: an offline message with its offline_message webhook pays every round trip to PostgreSQL, and the
// channel's ordering lock is held from the delivery's insert to the commit. This counts the statements one
// offline message sends through the pool (the server runs in this process, so every pg client is counted).
// The outbox wakes on each one and runs alongside: its statements (and the transactions holding them, told
// apart per connection) are left out of the count.
const engine = await startPostgres().catch((error: unknown) => {
  engineUnavailable(error);
  return undefined;
});
afterAll(() => engine?.stop());

const sent = recordPgStatements((client, sql) => ({ client, sql }));

const outbox = (sql: string) => /FROM deliveries d\b|FROM deliveries WHERE|UPDATE deliveries|delivery_attempts|% 2147483648/.test(sql);

/** What the intake sent: every statement but the outbox's, and but the transactions of the outbox's. */
function intakeStatements(): string[] {
  const dropped = new Set<number>();
  const open = new Map<pg.Client, number[]>();
  sent.forEach(({ client, sql }, i) => {
    if (sql === 'BEGIN') return void open.set(client, [i]);
    const tx = open.get(client);
    if (!tx) {
      if (outbox(sql)) dropped.add(i);
      return;
    }
    tx.push(i);
    if (sql !== 'COMMIT' && sql !== 'ROLLBACK') return;
    open.delete(client);
    if (tx.some((j) => outbox(sent[j]!.sql))) tx.forEach((j) => dropped.add(j));
  });
  return sent.filter((_, i) => !dropped.has(i)).map((s) => s.sql);
}

async function fewestStatements(samples: number, work: (i: number) => Promise<void>): Promise<string[]> {
  let fewest: string[] | undefined;
  for (let i = 0; i < samples; i++) {
    sent.length = 0;
    await work(i);
    // the outbox's transaction that began meanwhile ends
    await new Promise((r) => setTimeout(r, 50));
    const own = intakeStatements();
    if (!fewest || own.length < fewest.length) fewest = own;
  }
  return fewest!;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 120);

describe.skipIf(!engine)('offline messages on PostgreSQL: round trips', () => {
  let svc: TestServer;
  const widget = async (webhook: boolean) =>
    (
      await svc.api.post(
        '/api/v1/channels',
        {
          kind: 'widget',
          name: 'Offline shop',
          agent_ids: [],
          ...(webhook ? { webhook_url: 'http://127.0.0.1:9/none', webhook_events: ['offline_message'] } : {}),
        },
        ADMIN_TOKEN,
      )
    ).body as { public_id: string };

  beforeAll(async () => {
    svc = await startTestServer(
      { SVC_LOG_LEVEL: 'error', SVC_RATE_LIMITS: 'off' },
      undefined,
      engine!.createDatabase(`offline_trips_${process.pid}`),
    );
  });
  afterAll(() => svc?.dispose());

  const leave = async (publicId: string, message: string) => {
    const res = await svc.api.post(`/widget-api/${publicId}/offline-messages`, { email: 'ann@example.com', message });
    expect(res.status).toBe(201);
  };

  it("with its webhook: the channel's lock, the message and its delivery in one statement (no BEGIN)", async ({ annotate }) => {
    const channel = await widget(true);
    await leave(channel.public_id, 'warm the channel cache');
    const statements = await fewestStatements(5, (i) => leave(channel.public_id, `hello ${i}`));
    await annotate(`offline message with webhook: ${statements.length} statements\n  ${statements.map(oneLine).join('\n  ')}`);
    expect(statements.map(oneLine)).not.toContain('BEGIN');
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/pg_advisory_xact_lock[\s\S]*INSERT INTO offline_messages[\s\S]*INSERT INTO deliveries/);
  });

  it('without a webhook: one statement', async ({ annotate }) => {
    const channel = await widget(false);
    await leave(channel.public_id, 'warm the channel cache');
    const statements = await fewestStatements(5, (i) => leave(channel.public_id, `hello ${i}`));
    await annotate(`offline message without webhook: ${statements.length} statements\n  ${statements.map(oneLine).join('\n  ')}`);
    expect(statements).toHaveLength(1);
  });

  it("N offline messages left at once over two channels: each webhook carries its own message, a channel's in order", async ({
    annotate,
  }) => {
    const owner = await startFakeIntegrator();
    try {
      const channels: { public_id: string }[] = [];
      for (let c = 0; c < 2; c++) {
        const body = { kind: 'widget', name: `Batch ${c}`, agent_ids: [], webhook_url: owner.url, webhook_events: ['offline_message'] };
        channels.push((await svc.api.post('/api/v1/channels', body, ADMIN_TOKEN)).body as { public_id: string });
      }
      for (const channel of channels) await leave(channel.public_id, 'warm the channel cache');
      await owner.waitFor(channels.length);
      const texts = Array.from({ length: 30 }, (_, i) => ({ channel: channels[i % 2]!, text: `left ${i}` }));
      sent.length = 0;
      const answers = await Promise.all(
        texts.map(({ channel, text }) =>
          svc.api.post(`/widget-api/${channel.public_id}/offline-messages`, { email: 'ann@example.com', message: text }),
        ),
      );
      const commits = sent.filter(({ sql }) => /INSERT INTO offline_messages/.test(sql)).length;
      await annotate(`${texts.length} offline messages sent at once: ${commits} commits`);
      expect(answers.map((a) => a.status)).toEqual(texts.map(() => 201));
      // how many share a commit depends on how the requests arrive: counted here, asserted on one moment below

      await owner.waitFor(channels.length + texts.length);
      const webhooks = owner.received
        .slice(channels.length)
        .map((r) => r.body as { widget_id: string; offline_message_id: string; message: string });
      // each webhook names the message it is about, as the 201 did
      const idOf = new Map(answers.map((a, i) => [texts[i]!.text, a.body.offline_message_id as string]));
      expect(webhooks.map((w) => w.offline_message_id).sort()).toEqual([...idOf.values()].sort());
      for (const w of webhooks) expect(w.offline_message_id).toBe(idOf.get(w.message));
      // a channel's webhooks leave in the order of its messages
      for (const channel of channels) {
        const ids = webhooks.filter((w) => w.widget_id === channel.public_id).map((w) => Number(w.offline_message_id));
        expect(ids).toHaveLength(texts.length / 2);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
    } finally {
      await owner.close();
    }
  });

  it("N offline messages asked at one moment take fewer than N commits; each webhook row carries its message's id, a channel's in id order", async () => {
    // a second node on the same database, asked directly: its messages all arrive at one moment
    const db = await openPgDb({ url: svc.dbPath });
    try {
      const offline = createPgOfflineMessagesRepo(db);
      const channels: number[] = [];
      for (let c = 0; c < 2; c++) {
        const body = { kind: 'widget', name: `Moment ${c}`, agent_ids: [] };
        channels.push(((await svc.api.post('/api/v1/channels', body, ADMIN_TOKEN)).body as { id: number }).id);
      }
      sent.length = 0;
      const texts = Array.from({ length: 30 }, (_, i) => ({ channelId: channels[i % 2]!, text: `moment ${i}` }));
      const stored = await Promise.all(
        texts.map(({ channelId, text }) =>
          offline.add(
            { channelId, clientId: null, name: null, email: 'ann@example.com', phone: null, description: null, message: text },
            (offlineMessageId) => ({
              kind: 'webhook',
              channelId,
              url: 'http://127.0.0.1:9/none',
              payload: { offline_message_id: offlineMessageId, message: text },
              maxAttempts: 1,
              orderingKey: `webhook-offline:${channelId}`,
              // not due: this test reads the rows, no worker sends them
              dueAt: Date.now() + 3_600_000,
            }),
          ),
        ),
      );
      expect(stored.map((m) => m.message)).toEqual(texts.map((t) => t.text));
      expect(sent.filter(({ sql }) => /INSERT INTO offline_messages/.test(sql)).length).toBeLessThan(texts.length);

      const rows = await db.all<{ id: number; ordering_key: string; payload_json: string }>(
        'SELECT id, ordering_key, payload_json FROM deliveries WHERE channel_id = ANY($1::bigint[]) ORDER BY id',
        [channels],
      );
      const payloads = rows.map((r) => ({
        key: r.ordering_key,
        ...(JSON.parse(r.payload_json) as { offline_message_id: string; message: string }),
      }));
      const idOf = new Map(stored.map((m) => [m.message, String(m.id)]));
      expect(payloads).toHaveLength(texts.length);
      for (const p of payloads) expect(p.offline_message_id).toBe(idOf.get(p.message));
      for (const channelId of channels) {
        // in the order the outbox sends them (delivery id), a channel's webhooks name its messages in id order
        const ids = payloads.filter((p) => p.key === `webhook-offline:${channelId}`).map((p) => Number(p.offline_message_id));
        expect(ids).toHaveLength(texts.length / 2);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
    } finally {
      await db.close();
    }
  });
});
