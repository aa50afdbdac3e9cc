// One process of the overload bench's load client (overload-load.ts forks several): plain Node, no TypeScript
// loader, raw sockets and request bytes built once, so the client spends its CPU on sending, not on itself.
// Open-loop: request i is due at start + i / rate whatever the answers; it goes out on the first idle connection,
// and its latency is counted from when it was due, so a client or server that falls behind shows in the numbers
// (no coordinated omission). Each accepted answer's time from when its request was written is kept too: with the
// client's lag taken out, what is left is the server's (and the loopback's) share. Only 127.0.0.1; bounded by `count` requests and by `seconds` plus a drain time.
//
// `node open-loop-worker.mjs --trivial-server`: an HTTP server that answers every request with a small 200 at
// once, to measure the ceiling of the client itself.
import http from 'node:http';
import net from 'node:net';

if (process.argv.includes('--trivial-server')) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2 }).end('{}'));
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening on port ${server.address().port}`));
} else {
  process.once('message', (job) => void run(job));
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** @param {{ port: number, path: string, bodies: string[], rate: number, count: number, seconds: number, drainMs: number, connections: number }} job */
async function run(job) {
  const requests = job.bodies.map((body) =>
    Buffer.from(
      `POST ${job.path} HTTP/1.1\r\nHost: 127.0.0.1:${job.port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    ),
  );
  const result = {
    sent: 0,
    accepted: [],
    acceptedFromWrite: [],
    refused: [],
    acceptedAt: [],
    refusedAt: [],
    failed: 0,
    errors: 0,
    unanswered: 0,
  };
  /** How late each request went out after it was due: the client's own lag. */
  const lags = [];
  const idle = [];
  /** Due requests no connection was free for: their due times. */
  const waiting = [];
  let waitingHead = 0;
  let next = 0;
  let t0 = 0;
  let answered = 0;
  let deadline = Infinity;

  function connect() {
    const conn = { socket: net.connect(job.port, '127.0.0.1'), buffer: null, dueAt: 0, writtenAt: 0, busy: false };
    conn.socket.setNoDelay(true);
    conn.socket.on('data', (chunk) => onData(conn, chunk));
    conn.socket.on('error', () => undefined);
    conn.socket.on('close', () => {
      if (conn.busy) {
        conn.busy = false;
        result.errors++;
        answered++;
      }
      const at = idle.indexOf(conn);
      if (at >= 0) idle.splice(at, 1);
      if (answered < job.count && performance.now() < deadline) setImmediate(() => release(connect()));
    });
    return conn;
  }

  function send(conn, dueAt) {
    conn.busy = true;
    conn.dueAt = dueAt;
    conn.buffer = null;
    conn.writtenAt = performance.now();
    lags.push(conn.writtenAt - dueAt);
    conn.socket.write(requests[(result.sent++ * 7919) % requests.length]);
  }

  function release(conn) {
    if (waitingHead < waiting.length) send(conn, waiting[waitingHead++]);
    else idle.push(conn);
  }

  function onData(conn, chunk) {
    const data = conn.buffer ? Buffer.concat([conn.buffer, chunk]) : chunk;
    const end = data.indexOf(HEADER_END);
    if (end < 0) return void (conn.buffer = data);
    const head = data.latin1Slice(0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    const total = end + 4 + (length ? Number(length[1]) : 0);
    if (data.length < total) return void (conn.buffer = data);
    conn.buffer = null;
    const now = performance.now();
    const status = Number(head.slice(9, 12));
    const ms = now - conn.dueAt;
    if (status >= 200 && status < 300) {
      result.accepted.push(ms);
      result.acceptedFromWrite.push(now - conn.writtenAt);
      result.acceptedAt.push(conn.dueAt - t0);
    } else if (status === 503 || status === 429) {
      result.refused.push(ms);
      result.refusedAt.push(conn.dueAt - t0);
    } else result.failed++;
    conn.busy = false;
    answered++;
    if (!length || /\r\nconnection: *close/i.test(head)) return void conn.socket.destroy();
    release(conn);
  }

  const conns = [];
  for (let i = 0; i < job.connections; i++) {
    const conn = connect();
    conns.push(conn);
    await new Promise((resolve) => conn.socket.once('connect', resolve));
    idle.push(conn);
  }
  process.send({ ready: true });
  await new Promise((resolve) => process.once('message', resolve));

  t0 = performance.now();
  deadline = t0 + job.seconds * 1000 + job.drainMs;
  const interval = 1000 / job.rate;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < job.count && t0 + next * interval <= now) {
        const dueAt = t0 + next++ * interval;
        const conn = idle.pop();
        if (conn) send(conn, dueAt);
        else waiting.push(dueAt);
      }
      if (next >= job.count || now - t0 >= job.seconds * 1000) return resolve();
      setTimeout(tick, 1);
    };
    tick();
  });
  const scheduled = next;
  const sendingMs = performance.now() - t0;
  // Drain: the answers to what was sent, and what still waited for a connection, until the deadline.
  await new Promise((resolve) => {
    const check = () => {
      if (answered >= result.sent && waitingHead >= waiting.length) return resolve();
      if (performance.now() >= deadline) return resolve();
      setTimeout(check, 5);
    };
    check();
  });
  result.unanswered = scheduled - answered;
  for (const conn of conns) conn.socket.destroy();
  lags.sort((a, b) => a - b);
  const lagP99 = lags.length ? lags[Math.floor(lags.length * 0.99)] : 0;
  process.send({ ...result, scheduled, sendingMs, lagP99 }, () => process.exit(0));
}
