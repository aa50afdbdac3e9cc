// Issue 25, "long data": a generated database of 1,000,000 messages with 20,000 open chats, one of them 30,000
// messages long. Times the agent API's first page of chats and of the long chat's messages (median of 30 calls)
// against the calls without paging (what the console asked before) and against a same-run baseline: `GET
// /api/v1/me` on the same server, a request that reads one row. Budget: each page under 20 ms. Then the console in
// Chromium (console-long-chat.ts): the long chat beside a 10-message chat of the same inbox.
// BENCH_LONG_MESSAGES / BENCH_LONG_CHATS shrink it for a quick run.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_ADMIN_TOKEN, json, startService, stopProcess } from './bench-process.ts';
import { measureConsole, printConsoleFigures } from './console-long-chat.ts';

const TOTAL_MESSAGES = Number(process.env.BENCH_LONG_MESSAGES ?? 1_000_000);
const OPEN_CHATS = Number(process.env.BENCH_LONG_CHATS ?? 20_000);
const LONG_CHAT = 30_000;
/** The console's same-run baseline: a chat of a few messages. */
const SHORT_CHAT = 10;
const LONG_CHAT_CLIENT = 'Long Chat Customer';
const SHORT_CHAT_CLIENT = 'Short Chat Customer';
const CALLS = 30;
const BUDGET_MS = 20;

/** Writes the chats and messages straight into the service's database, as months of traffic would leave it. */
function fill(file: string, channelId: number): { long: number; short: number } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const now = Date.now();
  const client = db.prepare(
    'INSERT INTO clients (channel_id, external_key, external_id_json, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const chat = db.prepare("INSERT INTO chats (channel_id, client_id, state, created_at) VALUES (?, ?, 'open', ?)");
  const message = db.prepare(
    "INSERT INTO messages (chat_id, author, type, text, delivery, created_at) VALUES (?, 'client', 'text', ?, 'delivered', ?)",
  );
  const setLast = db.prepare('UPDATE chats SET last_message_id = (SELECT MAX(id) FROM messages WHERE chat_id = chats.id)');
  const chats = { long: 0, short: 0 };
  db.transaction(() => {
    const chatIds: number[] = [];
    for (let i = 0; i < OPEN_CHATS; i++) {
      const name = i === 0 ? LONG_CHAT_CLIENT : i === 1 ? SHORT_CHAT_CLIENT : `Customer ${i}`;
      const clientId = Number(client.run(channelId, `c${i}`, JSON.stringify(`c${i}`), name, now, now).lastInsertRowid);
      chatIds.push(Number(chat.run(channelId, clientId, now).lastInsertRowid));
    }
    [chats.long, chats.short] = chatIds as [number, number];
    // The long chat and the short one written last, so the console's inbox shows them at the top.
    let at = now;
    const others = chatIds.slice(2);
    for (let i = 0; i < TOTAL_MESSAGES - LONG_CHAT - SHORT_CHAT; i++) message.run(others[i % others.length]!, `message ${i}`, at++);
    for (let i = 0; i < LONG_CHAT; i++) message.run(chats.long, `long chat line ${i}`, at++);
    for (let i = 0; i < SHORT_CHAT; i++) message.run(chats.short, `short chat line ${i}`, at++);
    setLast.run();
  })();
  db.close();
  return chats;
}

async function median(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.arrayBuffer();
    times.push(performance.now() - started);
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, bytes };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-long-bench-'));
const file = path.join(dir, 'svc.sqlite');
try {
  let svc = await startService(file);
  const agent = await json(
    'POST',
    `${svc.base}/api/v1/agents`,
    { name: 'Bench', email: 'long@example.com', password: 'bench password' },
    BENCH_ADMIN_TOKEN,
  );
  const channel = await json(
    'POST',
    `${svc.base}/api/v1/channels`,
    { kind: 'chat_api', name: 'Long', webhook_url: 'http://127.0.0.1:9/none', chunked: false, agent_ids: [agent.id] },
    BENCH_ADMIN_TOKEN,
  );
  await stopProcess(svc);
  const filling = performance.now();
  const { long: longChat } = fill(file, channel.id);
  console.log(
    `long data: ${TOTAL_MESSAGES} messages, ${OPEN_CHATS} open chats, one of ${LONG_CHAT} (generated in ${((performance.now() - filling) / 1000).toFixed(1)} s)`,
  );
  svc = await startService(file);
  const { base } = svc;
  const token = agent.token as string;
  const baseline = await median(`${base}/api/v1/me`, token);
  const rows: [string, string, boolean][] = [
    ['first page of chats (limit=50)', `${base}/api/v1/chats?state=open&limit=50`, true],
    ['chats without paging (500)', `${base}/api/v1/chats?state=open`, false],
    ['newest page of the long chat (limit=50)', `${base}/api/v1/chats/${longChat}/messages?limit=50`, true],
    ['the long chat without paging (all)', `${base}/api/v1/chats/${longChat}/messages`, false],
  ];
  console.log(`  baseline GET /api/v1/me: ${baseline.ms.toFixed(2)} ms (median of ${CALLS})`);
  for (const [name, url, budgeted] of rows) {
    const r = await median(url, token);
    const verdict = budgeted ? ` (budget < ${BUDGET_MS} ms) ${r.ms < BUDGET_MS ? 'OK' : 'OVER BUDGET'}` : '';
    console.log(
      `  ${name}: ${r.ms.toFixed(2)} ms, ${(r.bytes / 1024).toFixed(1)} KB, ${(r.ms / baseline.ms).toFixed(1)}x the baseline${verdict}`,
    );
  }
  const figures = await measureConsole({
    base,
    email: 'long@example.com',
    password: 'bench password',
    shortChat: { client: SHORT_CHAT_CLIENT, newest: `short chat line ${SHORT_CHAT - 1}` },
    longChat: { client: LONG_CHAT_CLIENT, newest: `long chat line ${LONG_CHAT - 1}` },
  });
  printConsoleFigures(figures);
  await stopProcess(svc);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
