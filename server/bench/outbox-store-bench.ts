// The outbox's own CPU per delivery, in this process, no HTTP: rows over 50 ordering keys, claimed as the delivery
// worker claims them (runs of 16) and recorded delivered. Every run does the same work whatever the machine's load
// and the timing of requests (which sets the group commits' sizes in the end-to-end benches), so two versions of the
// store code compare by CPU per delivery: run it on each, alternating.
// `BENCH_STORES` (default sqlite,postgres); `BENCH_DELIVERIES` per round (default 20,000); 3 rounds after a warm-up.
import { cpuMs } from './bench-process.ts';
import { benchStores } from './bench-stores.ts';
import { openStore } from '../src/store/open-store.ts';
import type { Store } from '../src/store/store.ts';

const COUNT = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const KEYS = 50;
const payload = { event: 'CLIENT_MESSAGE', id: 'evt_bench', chat_id: '3', message: { type: 'TEXT', text: 'a message of ordinary length' } };

async function round(store: Store, channelId: number, count: number, enginePids: number[]) {
  const enqueued = Array.from({ length: count }, (_, i) =>
    store.deliveries.enqueue({
      kind: 'bot',
      channelId,
      url: 'http://127.0.0.1:9/bot',
      payload,
      maxAttempts: 3,
      orderingKey: `key-${i % KEYS}`,
      chatId: null,
      messageId: null,
    }),
  );
  await Promise.all(enqueued);
  const node = process.cpuUsage();
  const engine = cpuMs(enginePids);
  for (let done = 0; done < count;) {
    const claimed = await store.deliveries.claimDue('bench', Date.now(), 60_000, 64, 16);
    if (claimed.length === 0) throw new Error(`nothing due after ${done} of ${count}`);
    const attempts = claimed.map((sent) => ({
      sent,
      outcome: { result: 'delivered' as const, status: 200 },
      log: { answer: '{"result":"ok"}', durationMs: 1 },
    }));
    done += (await store.deliveries.recordAttempts('bench', attempts)).filter(Boolean).length;
  }
  const used = process.cpuUsage(node);
  return { nodeUs: (used.user + used.system) / count, engineUs: ((cpuMs(enginePids) - engine) * 1000) / count };
}

const stores = await benchStores();
try {
  for (const name of stores.names) {
    const store = await openStore({ db: stores.database(name, 'outbox_store_bench'), sync: 'normal' });
    const channel = await store.channels.create({
      publicId: 'bench',
      kind: 'chat_api',
      name: 'Bench',
      randomString: 'r'.repeat(32),
      webhookUrl: 'http://127.0.0.1:9/hooks',
      chunked: false,
      safeDomains: [],
      webhookEvents: [],
      agentIds: [],
      signingSecret: 'bench',
    });
    await round(store, channel.id, 2000, []);
    // After the warm-up: the pool's connections (PostgreSQL's backends, where its CPU goes) are open by then.
    const pids = stores.enginePids(name);
    const rounds = [];
    for (let r = 0; r < 3; r++) rounds.push(await round(store, channel.id, COUNT, pids));
    await store.close();
    const show = (values: number[]) => values.map((v) => v.toFixed(1)).join(' ');
    console.log(
      `${name}: CPU per delivery (claim + record), 3 rounds of ${COUNT}: node ${show(rounds.map((r) => r.nodeUs))} us` +
        (name === 'postgres' ? `, engine ${show(rounds.map((r) => r.engineUs))} us` : ''),
    );
  }
} finally {
  stores.stop();
}
