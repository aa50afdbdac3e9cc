// Erasure of a customer (`DELETE /api/v1/channels/:id/clients/:client_id`) with BENCH_ERASE_MESSAGES messages, in a
// database that holds BENCH_ERASE_OTHER deliveries of other chats, against the same erasure in a database without
// them, in the same run, on each store of BENCH_STORES. Deleting a message makes the database look for deliveries
// still referring to it: without an index on that key each look-up reads every delivery ever made (74 s on
// PostgreSQL and 29 s on SQLite, holding its write lock, for 2,000 messages beside 200,000 deliveries). Some growth
// is the erasure's own: it vacuums the tables it touched (PostgreSQL) or checkpoints the WAL the seeding filled
// (SQLite), so that no file keeps the erased text. `BENCH_SERVER_MAIN=<main.js>` measures another build.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_ADMIN_TOKEN, json, startService, stopProcess } from './bench-process.ts';
import { benchStores, openBenchDatabase, type StoreName } from './bench-stores.ts';

const MESSAGES = Number(process.env.BENCH_ERASE_MESSAGES ?? 2000);
const OTHER = Number(process.env.BENCH_ERASE_OTHER ?? 200_000);

/** Numbers 1..$2 as rows `n`: PostgreSQL's generate_series, a recursive CTE in SQLite. */
const series = (store: StoreName) =>
  store === 'postgres'
    ? 'generate_series(1, $2) AS g(n)'
    : '(WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < $2) SELECT n FROM g)';

async function eraseMs(store: StoreName, database: string, other: number): Promise<number> {
  const svc = await startService(database);
  const db = await openBenchDatabase(database);
  try {
    const channel = await json(
      'POST',
      `${svc.base}/api/v1/channels`,
      { kind: 'chat_api', name: 'Erase', webhook_url: 'http://127.0.0.1:9/none', chunked: false },
      BENCH_ADMIN_TOKEN,
    );
    const customer = (id: string) => json('POST', channel.endpoint, { sender: { id }, message: { type: 'text', text: 'hello' } });
    const { chat_id: erased } = await customer('erased');
    const { chat_id: kept } = await customer('kept');
    const messages = (chat: number, author: string, count: number) =>
      db.run(
        `INSERT INTO messages (chat_id, author, type, text, delivery, created_at)
         SELECT $1, '${author}', 'text', 'message ' || n, 'delivered', 1 FROM ${series(store)}`,
        [chat, count],
      );
    await messages(erased, 'client', MESSAGES);
    if (other > 0) {
      await messages(kept, 'agent', other);
      await db.run(
        `INSERT INTO deliveries (kind, channel_id, chat_id, message_id, ordering_key, event_id, url, payload_json, state,
           attempts, max_attempts, next_attempt_at, created_at)
         SELECT 'chat_api', $1, chat_id, id, 'kept', 'evt_' || id, 'http://127.0.0.1:9/none', '{}', 'delivered', 1, 10, 1, 1
         FROM messages WHERE chat_id = $2 AND author = 'agent'`,
        [channel.id, kept],
      );
    }
    if (store === 'postgres') await db.run('ANALYZE', []);
    const started = performance.now();
    const res = await fetch(`${svc.base}/api/v1/channels/${channel.id}/clients/erased`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}` },
    });
    if (res.status !== 204) throw new Error(`erase: ${res.status} ${await res.text()}`);
    return performance.now() - started;
  } finally {
    await db.close();
    await stopProcess(svc);
  }
}

export async function eraseBench() {
  const stores = await benchStores();
  try {
    console.log(`\nErasing a customer with ${MESSAGES} messages (admin API), beside ${OTHER} deliveries of other chats or none:`);
    for (const store of stores.names) {
      const alone = await eraseMs(store, stores.database(store, 'erase-alone'), 0);
      const beside = await eraseMs(store, stores.database(store, 'erase-beside'), OTHER);
      console.log(
        `  ${store}: ${alone.toFixed(0)} ms alone, ${beside.toFixed(0)} ms beside ${OTHER} deliveries: ` +
          `${(beside / alone).toFixed(2)}x, ${((beside - alone) / MESSAGES).toFixed(2)} ms more per message erased`,
      );
    }
  } finally {
    stores.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await eraseBench();
