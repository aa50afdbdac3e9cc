// Issue 24: abandoned chats. A SQLite store with BENCH_CHATS open chats (150,000 by default, one message
// each, as the soak left them): the agents' inbox listing, and the auto-close sweep's lookup when nothing is
// idle yet (what every sweep of a busy site costs); then every chat goes idle, the sweep closes them all in
// its batches, and the inbox is read again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startAutoClose } from '../src/conversations/auto-close.ts';
import { createConversationService } from '../src/conversations/conversation-service.ts';
import { DomainEvents } from '../src/conversations/domain-events.ts';
import { openStore } from '../src/store/open-store.ts';

const CHATS = Number(process.env.BENCH_CHATS ?? 150_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-auto-close-bench-'));
const store = await openStore({ db: path.join(dir, 'bench.sqlite'), sync: 'normal', poolSize: 1 });

async function median(label: string, run: () => Promise<unknown>, times = 7) {
  const ms: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const value = ms[Math.floor(ms.length / 2)]!;
  console.log(`${label}: ${value.toFixed(2)} ms (median of ${times})`);
  return value;
}

const agent = await store.agents.create(
  { name: 'Bench', email: 'bench@example.com', passwordHash: 'x', photo: null, role: 'agent' },
  'bench',
);
const channel = await store.channels.create({
  publicId: 'benchwidget1',
  kind: 'widget',
  name: 'Bench',
  randomString: 'r'.repeat(32),
  webhookUrl: null,
  chunked: false,
  safeDomains: [],
  webhookEvents: [],
  agentIds: [agent.id],
  signingSecret: 'whsec_bench',
});

const seeding = performance.now();
for (let start = 0; start < CHATS; start += 1000) {
  await Promise.all(
    Array.from({ length: Math.min(1000, CHATS - start) }, (_, i) =>
      store.chats.appendClientMessage({
        channelId: channel.id,
        client: { key: `v${start + i}`, id: `v${start + i}`, profile: {} },
        botProviderRowId: null,
        message: { type: 'text', text: 'hello', media: {}, externalId: null },
      }),
    ),
  );
}
console.log(`seeded ${CHATS} open chats in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

const events = new DomainEvents();
const conversations = createConversationService({
  store,
  events,
  outbounds: {
    chat_api: { messageDelivery: () => null, typingDelivery: () => null },
    widget: { messageDelivery: () => null, typingDelivery: () => null },
  },
});

await median(`inbox listing (open) with ${CHATS} open chats`, () => store.chats.listForAgent(agent.id, 'open', 500, null));
await median(`sweep lookup with ${CHATS} open chats, none idle for 30 min`, () =>
  store.chats.listIdle(channel.id, Date.now() - 30 * 60_000, 50),
);

// Every chat is now idle: 1 ms without a message is enough.
await store.channels.update(channel.id, { autoCloseMs: 1 });
await new Promise((r) => setTimeout(r, 5));
const sweeper = startAutoClose({ store, conversations, intervalMs: 3_600_000, log: pino({ level: 'silent' }) });
const closing = performance.now();
sweeper.tick();
while ((await store.chats.listIdle(channel.id, Date.now(), 1)).length > 0) await new Promise((r) => setTimeout(r, 100));
await sweeper.stop();
const seconds = (performance.now() - closing) / 1000;
console.log(`auto-close closed ${CHATS} idle chats in ${seconds.toFixed(1)} s (${Math.round(CHATS / seconds)} chats/s)`);
await median(`inbox listing (open) after auto-close`, () => store.chats.listForAgent(agent.id, 'open', 500, null));

await store.close();
fs.rmSync(dir, { recursive: true, force: true });
