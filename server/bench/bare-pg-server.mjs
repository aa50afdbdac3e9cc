// The PostgreSQL baseline of the Chat API benchmark: a bare Koa + pg handler that parses the same JSON and
// inserts one row per request through a pool of the server's default size, with nothing else.
// With BENCH_REDIS_URL it also publishes each stored message on a Redis pub/sub channel that every such handler
// listens to (parsing what it hears): the least two nodes must do for a console on one to see a message taken by
// the other (cluster-bench.ts).
import http from 'node:http';
import Koa from 'koa';
import pg from 'pg';
import { createClient } from 'redis';

const pool = new pg.Pool({ connectionString: process.env.BENCH_DB, max: 10 });
await pool.query(
  'CREATE TABLE IF NOT EXISTS bare_messages (id BIGSERIAL PRIMARY KEY, sender_id TEXT NOT NULL, text TEXT, created_at BIGINT NOT NULL)',
);

const CHANNEL = 'bare:messages';
let publish = async () => {};
if (process.env.BENCH_REDIS_URL) {
  const publisher = createClient({ url: process.env.BENCH_REDIS_URL });
  const subscriber = publisher.duplicate();
  // node-redis reconnects by itself; without a listener an error event would end the baseline mid-run.
  for (const client of [publisher, subscriber]) client.on('error', (err) => console.error(`redis: ${err.message}`));
  await publisher.connect();
  await subscriber.connect();
  await subscriber.subscribe(CHANNEL, (message) => JSON.parse(message));
  publish = (message) => publisher.publish(CHANNEL, JSON.stringify(message));
}

const app = new Koa();
app.use(async (ctx) => {
  // nginx in front (cluster-bench.ts) asks this before it takes load
  if (ctx.path === '/healthz') {
    ctx.body = { ok: true };
    return;
  }
  const chunks = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const { rows } = await pool.query('INSERT INTO bare_messages (sender_id, text, created_at) VALUES ($1, $2, $3) RETURNING id', [
    String(body.sender.id),
    body.message.text,
    Date.now(),
  ]);
  const message = { id: Number(rows[0].id), sender_id: String(body.sender.id), text: body.message.text };
  await publish(message);
  ctx.body = { result: 'ok', message_id: message.id };
});
const server = http.createServer(app.callback()).listen(0, '127.0.0.1', () => {
  console.log(`port ${server.address().port}`);
});
// As the server's (server.ts): longer than nginx keeps an idle upstream connection, so nginx never sends on one
// this side has just closed.
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
