// The baseline of the Chat API benchmark: a bare Koa + better-sqlite3 handler that parses the same JSON
// and inserts one row per request, at the same `synchronous` setting, with nothing else.
import http from 'node:http';
import Database from 'better-sqlite3';
import Koa from 'koa';

const db = new Database(process.env.BENCH_DB);
db.pragma('journal_mode = WAL');
db.pragma(`synchronous = ${process.env.BENCH_SYNC ?? 'full'}`);
db.exec('CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, sender_id TEXT NOT NULL, text TEXT, created_at INTEGER NOT NULL)');
const insert = db.prepare('INSERT INTO messages (sender_id, text, created_at) VALUES (?, ?, ?)');

const app = new Koa();
app.use(async (ctx) => {
  const chunks = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const id = insert.run(String(body.sender.id), body.message.text, Date.now()).lastInsertRowid;
  ctx.body = { result: 'ok', message_id: Number(id) };
});
const server = http.createServer(app.callback()).listen(0, '127.0.0.1', () => {
  console.log(`port ${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => (db.close(), process.exit(0))));
