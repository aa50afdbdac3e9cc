// The sample "custom app" of the Chat API (spec Area A): the integrating system's side. Its page plays the
// customer; this server posts the customer's messages to the channel endpoint and receives the agents'
// replies on its own endpoint, checking their Standard Webhooks signature, and streams them to the page.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';

interface DemoChannel {
  endpoint: string;
  public_id: string;
  signing_secret: string;
}

interface ReplyEvent {
  customer: string;
  kind: 'message' | 'typing';
  body: unknown;
}

const port = Number(process.env.DEMO_INTEGRATOR_PORT ?? 3001);
const serviceUrl = process.env.SVC_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const adminToken = process.env.SVC_ADMIN_TOKEN;
const channelName = process.env.DEMO_CHANNEL_NAME ?? 'Demo custom app';
const publicDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'public');
const replies = new EventEmitter();
replies.setMaxListeners(100);

let channel: DemoChannel | undefined;

/** Finds the demo Chat API channel through the admin API (the page may also be given an endpoint); `fresh`
 * reads it again, e.g. after the signing secret was rotated. */
async function discoverChannel(fresh = false): Promise<DemoChannel | undefined> {
  if ((channel && !fresh) || !adminToken) return channel;
  try {
    const res = await fetch(`${serviceUrl}/api/v1/channels`, { headers: { authorization: `Bearer ${adminToken}` } });
    if (!res.ok) return undefined;
    const { channels } = (await res.json()) as { channels: (DemoChannel & { kind: string; name: string })[] };
    channel = channels.find((c) => c.kind === 'chat_api' && c.name === channelName);
  } catch {
    // the service is not up yet; the page asks again
  }
  return channel;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      data += chunk;
      if (data.length > 256 * 1024) req.destroy(new Error('too large'));
    });
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** POST /integrator/<CHANNEL_PUBLIC_ID>: an agent reply or typing change (spec 4.1, integrating system side). */
async function receiveReply(req: http.IncomingMessage, res: http.ServerResponse, publicId: string) {
  const raw = await readBody(req);
  const verified = async (fresh: boolean) => {
    const known = await discoverChannel(fresh);
    if (!known || known.public_id !== publicId) return false;
    try {
      new Webhook(known.signing_secret).verify(raw, req.headers as Record<string, string>);
      return true;
    } catch {
      return false;
    }
  };
  // A failed check is tried once more with a fresh secret, in case it was rotated.
  if (!(await verified(false)) && !(await verified(true))) {
    return sendJson(res, 401, { error: { code: 401, message: 'Unknown channel or bad signature' } });
  }
  let body: { recipient?: { id?: unknown }; message?: { type?: string } };
  try {
    body = JSON.parse(raw) as typeof body;
  } catch {
    return sendJson(res, 400, { error: { code: 400, message: 'Body is not JSON' } });
  }
  const customer = String(body.recipient?.id ?? '');
  const type = body.message?.type;
  replies.emit('reply', { customer, kind: type === 'typein' || type === 'typeout' ? 'typing' : 'message', body } satisfies ReplyEvent);
  sendJson(res, 200, { result: 'ok' });
}

/** POST /integrator/api/send {endpoint?, sender, message}: the page's customer message, posted to the channel. */
async function forwardCustomerMessage(req: http.IncomingMessage, res: http.ServerResponse) {
  let input: { endpoint?: string; sender?: unknown; message?: unknown };
  try {
    input = JSON.parse(await readBody(req)) as typeof input;
  } catch {
    return sendJson(res, 400, { error: 'Body is not JSON' });
  }
  const endpoint = input.endpoint || (await discoverChannel())?.endpoint;
  if (!endpoint) return sendJson(res, 400, { error: 'No channel endpoint: paste one from the admin API' });
  try {
    const answer = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: input.sender, message: input.message }),
    });
    sendJson(res, answer.status, await answer.json().catch(() => ({})));
  } catch (err) {
    sendJson(res, 502, { error: `The service did not answer: ${(err as Error).message}` });
  }
}

/** GET /integrator/api/events?customer=<id>: the replies to one customer, as server-sent events. */
function streamReplies(req: http.IncomingMessage, res: http.ServerResponse, customer: string) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(': connected\n\n');
  const listener = (event: ReplyEvent) => {
    if (event.customer === customer) res.write(`data: ${JSON.stringify(event)}\n\n`);
  };
  replies.on('reply', listener);
  req.on('close', () => replies.off('reply', listener));
}

function serveFile(res: http.ServerResponse, name: string) {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };
  const file = path.join(publicDir, path.basename(name));
  if (!fs.existsSync(file)) return sendJson(res, 404, { error: 'not found' });
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const route = `${req.method} ${url.pathname}`;
  const fail = (err: unknown) => sendJson(res, 500, { error: (err as Error).message });
  if (route === 'GET /integrator' || route === 'GET /') return res.writeHead(302, { location: '/integrator/' }).end();
  if (route === 'GET /integrator/') return serveFile(res, 'index.html');
  if (route === 'GET /integrator/api/channel')
    return void discoverChannel().then((c) => sendJson(res, 200, { endpoint: c?.endpoint ?? null }), fail);
  if (route === 'POST /integrator/api/send') return void forwardCustomerMessage(req, res).catch(fail);
  if (route === 'GET /integrator/api/events') return streamReplies(req, res, url.searchParams.get('customer') ?? '');
  const reply = /^POST \/integrator\/([\w-]+)$/.exec(route);
  if (reply) return void receiveReply(req, res, reply[1]!).catch(fail);
  if (req.method === 'GET' && url.pathname.startsWith('/integrator/')) return serveFile(res, url.pathname.slice('/integrator/'.length));
  sendJson(res, 404, { error: 'not found' });
});

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`demo integrator (sample Chat API app) on http://127.0.0.1:${port}/integrator/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
