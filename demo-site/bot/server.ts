// The sample bot provider (spec Area B): a small FAQ bot that speaks the Bot API for real. It answers
// CLIENT_MESSAGE in-line (TEXT, MARKDOWN, BUTTONS), hands over to a person on request or when it has no
// answer (INVITE_AGENT), and, told AGENT_UNAVAILABLE, posts a follow-up to the service's webhook.
import http from 'node:http';

type ClientMessage = {
  event: 'CLIENT_MESSAGE';
  id: string;
  client_id: string;
  chat_id: string;
  message: { text: string; button_id?: string };
};
type ServiceEvent =
  ClientMessage | { event: 'AGENT_JOINED' | 'AGENT_UNAVAILABLE' | 'CHAT_CLOSED'; id: string; client_id: string; chat_id: string };

const port = Number(process.env.DEMO_BOT_PORT ?? 3002);
const serviceUrl = process.env.SVC_URL ?? 'http://127.0.0.1:3000';
const adminToken = process.env.SVC_ADMIN_TOKEN;
const providerName = process.env.DEMO_BOT_NAME ?? 'Demo FAQ bot';
const now = () => Math.floor(Date.now() / 1000);

const menu = {
  type: 'BUTTONS',
  title: "Hi! I'm the shop's FAQ bot. What can I help you with?",
  text: "Hi! I'm the shop's FAQ bot. Ask about delivery or returns, or write 'human' to talk to a person.",
  buttons: [
    { text: 'Delivery times', id: 'delivery' },
    { text: 'Returns', id: 'returns' },
    { text: 'Talk to a person', id: 'human' },
  ],
};

/** The answer to one client message: a BOT_MESSAGE, or INVITE_AGENT when a person should take over. */
function answer(event: ClientMessage) {
  const said = `${event.message.button_id ?? ''} ${event.message.text}`.toLowerCase();
  const reply = (message: Record<string, unknown>) => ({
    event: 'BOT_MESSAGE',
    id: `bot-${event.id}`,
    chat_id: event.chat_id,
    message: { ...message, timestamp: now() },
  });
  if (/\b(human|person|agent|operator)\b/.test(said))
    return { event: 'INVITE_AGENT', id: `invite-${event.id}`, client_id: event.client_id, chat_id: event.chat_id };
  if (/\b(hi|hello|hey|help|menu|start)\b/.test(said)) return reply(menu);
  if (/deliver|shipping|track/.test(said)) {
    return reply({
      type: 'MARKDOWN',
      content: '**Delivery** takes *2 to 4 working days*. Follow your parcel on [the tracking page](https://example.com/track).',
      text: 'Delivery takes 2 to 4 working days. Follow your parcel on https://example.com/track',
    });
  }
  if (/return|refund/.test(said)) return reply({ type: 'TEXT', text: 'You can return any item within 30 days for a full refund.' });
  // No prepared answer: spec 3 says the bot invites an agent.
  return { event: 'INVITE_AGENT', id: `invite-${event.id}`, client_id: event.client_id, chat_id: event.chat_id };
}

let providerId: string | undefined;
/** The provider id the service issued to this bot, found through the admin API (the demo knows its token). */
async function ownProviderId(): Promise<string | undefined> {
  if (providerId || !adminToken) return providerId;
  const res = await fetch(`${serviceUrl}/api/v1/bot-providers`, { headers: { authorization: `Bearer ${adminToken}` } }).catch(
    () => undefined,
  );
  if (!res?.ok) return undefined;
  const { bot_providers } = (await res.json()) as { bot_providers: { provider_id: string; name: string }[] };
  providerId = bot_providers.find((p) => p.name === providerName)?.provider_id;
  return providerId;
}

/** Posts a follow-up to `{bot_url}/webhooks/{provider_id}/{token}` (spec 4.2, provider to service). */
async function followUp(token: string, chatId: string, text: string) {
  const id = await ownProviderId();
  if (!id) return;
  await fetch(`${serviceUrl}/bot/webhooks/${id}/${encodeURIComponent(token)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      event: 'BOT_MESSAGE',
      id: `follow-${chatId}-${Date.now()}`,
      chat_id: chatId,
      message: { type: 'TEXT', text, timestamp: now() },
    }),
  }).catch(() => undefined);
}

const server = http.createServer((req, res) => {
  const token = decodeURIComponent((req.url ?? '/').split('/').pop() ?? '');
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (raw += c));
  req.on('end', () => {
    let event: ServiceEvent;
    try {
      event = JSON.parse(raw) as ServiceEvent;
    } catch {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'invalid_request', message: 'Body is not JSON' } }));
      return;
    }
    const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (event.event === 'CLIENT_MESSAGE') return send(answer(event));
    if (event.event === 'AGENT_UNAVAILABLE')
      void followUp(token, event.chat_id, "No one is online right now. Leave your e-mail here and we'll write back.");
    send({ result: 'ok' });
  });
});

server.listen(port, '127.0.0.1', () => process.stdout.write(`demo FAQ bot (sample Bot API provider) on http://127.0.0.1:${port}/bot\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
