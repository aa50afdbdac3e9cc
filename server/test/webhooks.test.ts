import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

type Fake = Awaited<ReturnType<typeof startFakeIntegrator>>;
let t: TestServer;
let owner: Fake;
let agent: TestAgent;
let widget: any;
const sockets: Socket[] = [];

/** A widget visitor of `widgetId` on the server at `base`, connected and greeted. */
async function visitor(widgetId = widget.public_id, base = t.base) {
  const socket: Socket<VisitorServerEvents, VisitorClientEvents> = io(`${base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widgetId },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  return { socket, session };
}

const hooks = (name: string) => owner.received.filter((r) => r.body?.event_name === name);

beforeAll(async () => {
  owner = await startFakeIntegrator(() => ({ status: 200, body: { result: 'ok' } }));
  t = await startTestServer({ SVC_WEBHOOK_TIMEOUT_MS: '500' });
  agent = await createAgent(t.api, { name: 'Wendy' });
  const res = await t.api.post(
    '/api/v1/channels',
    {
      kind: 'widget',
      name: 'Hooked shop',
      agent_ids: [agent.id],
      webhook_url: `${owner.url}/hooks`,
      webhook_events: ['chat_finished', 'chat_updated'],
    },
    ADMIN_TOKEN,
  );
  widget = res.body;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await owner.close();
});

describe('server webhooks', () => {
  it('lists the events a widget channel sends, all by default, and refuses unknown ones', async () => {
    expect(widget.webhook_events).toEqual(['chat_finished', 'chat_updated']);
    const all = await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Default', agent_ids: [] }, ADMIN_TOKEN);
    expect(all.body.webhook_events).toEqual([
      'chat_accepted',
      'chat_assigned',
      'chat_finished',
      'chat_updated',
      'offline_message',
      'call_event',
    ]);
    const bad = await t.api.post(
      '/api/v1/channels',
      { kind: 'widget', name: 'Bad', agent_ids: [], webhook_events: ['chat_exploded'] },
      ADMIN_TOKEN,
    );
    expect(bad.status).toBe(400);
  });

  it('sends chat_updated when the visitor fills in contact details, and chat_finished with the chat log when the chat closes, signed', async () => {
    const v = await visitor();
    v.socket.emit('page:view', {
      url: 'https://shop.example/tea',
      title: 'Green tea',
      utm: { source: 'mail', campaign: 'spring' },
      user_agent: 'UA/1',
    });
    await v.socket.emitWithAck('user-token:set', 'crm-42');
    await v.socket.emitWithAck('message:send', { client_msg_id: 'hook-msg-0001', text: 'Is this tea organic?' });
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find(
      (c: any) => c.client.id === v.session.visitor_id,
    );
    await t.api.post(`/api/v1/chats/${chat.id}/accept`, undefined, agent.token);
    await t.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Yes, it is.' }, agent.token);
    await v.socket.emitWithAck('contact:set', { name: 'Tess', email: 'tess@example.com', description: 'Regular' });

    await owner.waitFor(1);
    const updated = hooks('chat_updated')[0]!;
    expect(updated.path).toBe('/hooks');
    expect(updated.body).toMatchObject({
      event_name: 'chat_updated',
      chat_id: chat.id,
      widget_id: widget.public_id,
      user_token: 'crm-42',
      agent: { id: agent.id, name: 'Wendy', email: agent.email },
      visitor: {
        name: 'Tess',
        email: 'tess@example.com',
        description: 'Regular',
        number: String(v.session.visitor_number),
        chats_count: 1,
      },
      page: { url: 'https://shop.example/tea', title: 'Green tea' },
      session: { utm: 'source=mail|campaign=spring', utm_json: { source: 'mail', campaign: 'spring' }, user_agent: 'UA/1', geoip: {} },
    });
    expect(updated.body.session.ip_addr).toMatch(/127\.0\.0\.1/);

    expect(await v.socket.emitWithAck('chat:rate', { rate: 'splendid' } as never)).toEqual({
      ok: false,
      error: 'rate must be positive or negative',
    });
    expect(await v.socket.emitWithAck('chat:rate', { rate: 'positive' })).toEqual({ ok: true });
    expect((await t.api.get(`/api/v1/chats/${chat.id}`, agent.token)).body.chat.rate).toBe('positive');
    await t.api.post(`/api/v1/chats/${chat.id}/close`, { blacklist: true }, agent.token);
    await owner.waitFor(2);
    const finished = hooks('chat_finished')[0]!;
    expect(finished.body).toMatchObject({
      event_name: 'chat_finished',
      chat_id: chat.id,
      agents: [{ id: agent.id, name: 'Wendy', email: agent.email }],
      chat: {
        rate: 'positive',
        blacklisted: true,
        messages: [
          { type: 'visitor', message: 'Is this tea organic?', timestamp: expect.any(Number) },
          { type: 'agent', agent_id: agent.id, message: 'Yes, it is.', timestamp: expect.any(Number) },
        ],
      },
    });
    expect(finished.headers['webhook-id']).toBe(finished.body.event_id);
    expect(() => new Webhook(widget.signing_secret).verify(finished.raw, finished.headers as Record<string, string>)).not.toThrow();
  });

  it('closes the chat the visitor ends as an agent close does: chat:closed to the visitor, and chat_finished carrying the rating given after', async () => {
    const v = await visitor();
    expect(await v.socket.emitWithAck('chat:end')).toEqual({ ok: false, error: 'no conversation to end' });
    await v.socket.emitWithAck('message:send', { client_msg_id: 'end-msg-0001', text: 'Thanks, that is all.' });
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find(
      (c: any) => c.client.id === v.session.visitor_id,
    );
    await t.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Have a nice day.' }, agent.token);
    const told = new Promise((resolve) => v.socket.once('chat:closed', resolve));
    const before = hooks('chat_finished').length;

    expect(await v.socket.emitWithAck('chat:end')).toEqual({ ok: true });
    expect(await told).toEqual({ chat_id: chat.id });
    expect((await t.api.get(`/api/v1/chats/${chat.id}`, agent.token)).body.chat.state).toBe('closed');

    // The widget asks for the rating once the chat has ended: it lands on the chat just closed, and chat_finished
    // (held for the rating window, 60 s by default) leaves with it.
    expect(await v.socket.emitWithAck('chat:rate', { rate: 'negative' })).toEqual({ ok: true });
    expect((await t.api.get(`/api/v1/chats/${chat.id}`, agent.token)).body.chat.rate).toBe('negative');
    await expect.poll(() => hooks('chat_finished').length, { timeout: 5000 }).toBe(before + 1);
    expect(hooks('chat_finished').at(-1)!.body).toMatchObject({
      chat_id: chat.id,
      chat: {
        rate: 'negative',
        blacklisted: false,
        messages: [
          { type: 'visitor', message: 'Thanks, that is all.' },
          { type: 'agent', message: 'Have a nice day.' },
        ],
      },
    });
    expect(await v.socket.emitWithAck('chat:end')).toEqual({ ok: false, error: 'no conversation to end' });
  });

  it('asks chat_accepted when an agent takes the chat and shows an ok answer to agents; the CRM bind sends chat_assigned', async () => {
    const ownerCrm = await startFakeIntegrator((r) =>
      r.body.event_name === 'chat_accepted'
        ? {
            status: 200,
            body: {
              result: 'ok',
              custom_data: [{ title: 'Plan', content: 'Gold' }, { title: 42 }],
              contact_info: { name: 'Known Customer', email: 'known@example.com' },
              enable_assign: true,
              crm_link: 'https://crm.example.com/cards/7',
              page: { url: 'https://shop.example/cart', title: 'Cart' },
            },
          }
        : { status: 200, body: { result: 'ok' } },
    );
    try {
      const ch = (
        await t.api.post(
          '/api/v1/channels',
          {
            kind: 'widget',
            name: 'CRM shop',
            agent_ids: [agent.id],
            webhook_url: ownerCrm.url,
            webhook_events: ['chat_accepted', 'chat_assigned'],
          },
          ADMIN_TOKEN,
        )
      ).body;
      const { socket, session } = await visitor(ch.public_id, t.base);
      await socket.emitWithAck('message:send', { client_msg_id: 'crm-msg-0001', text: 'hello' });
      const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find(
        (c: any) => c.client.id === session.visitor_id,
      );
      await t.api.post(`/api/v1/chats/${chat.id}/accept`, undefined, agent.token);
      await ownerCrm.waitFor(1);
      expect(ownerCrm.received[0]!.body).toMatchObject({ event_name: 'chat_accepted', chat_id: chat.id, agent: { id: agent.id } });
      let seen: any;
      for (let i = 0; i < 50 && !seen?.crm; i++) {
        seen = (await t.api.get(`/api/v1/chats/${chat.id}`, agent.token)).body.chat;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen.crm).toEqual({
        custom_data: [{ title: 'Plan', content: 'Gold' }],
        enable_assign: true,
        crm_link: 'https://crm.example.com/cards/7',
        page: { url: 'https://shop.example/cart', title: 'Cart' },
        assigned_to: null,
      });
      expect(seen.client).toMatchObject({ name: 'Known Customer', email: 'known@example.com' });
      const bound = await t.api.post(`/api/v1/chats/${chat.id}/crm-assign`, undefined, agent.token);
      expect(bound.body.chat.crm.assigned_to).toBe('https://crm.example.com/cards/7');
      await ownerCrm.waitFor(2);
      expect(ownerCrm.received[1]!.body).toMatchObject({
        event_name: 'chat_assigned',
        chat_id: chat.id,
        assign_to: 'https://crm.example.com/cards/7',
      });
    } finally {
      await ownerCrm.close();
    }
  });

  it('shows nothing of a chat_accepted answer whose result is not ok', async () => {
    const refusing = await startFakeIntegrator(() => ({
      status: 200,
      body: { result: 'FAILURE', crm_link: 'https://crm.example.com/x', enable_assign: true },
    }));
    try {
      const ch = (
        await t.api.post('/api/v1/channels', { kind: 'widget', name: 'No', agent_ids: [agent.id], webhook_url: refusing.url }, ADMIN_TOKEN)
      ).body;
      const { socket, session } = await visitor(ch.public_id, t.base);
      await socket.emitWithAck('message:send', { client_msg_id: 'crm-msg-0002', text: 'hello' });
      const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find(
        (c: any) => c.client.id === session.visitor_id,
      );
      await t.api.post(`/api/v1/chats/${chat.id}/accept`, undefined, agent.token);
      await refusing.waitFor(1);
      await new Promise((r) => setTimeout(r, 200));
      expect((await t.api.get(`/api/v1/chats/${chat.id}`, agent.token)).body.chat.crm).toBeNull();
      expect((await t.api.post(`/api/v1/chats/${chat.id}/crm-assign`, undefined, agent.token)).status).toBe(400);
    } finally {
      await refusing.close();
    }
  });

  it('takes an offline message: agents see it live and in their list, and offline_message goes to the owner', async () => {
    const ownerOffline = await startFakeIntegrator(() => ({ status: 200, body: { result: 'ok' } }));
    try {
      const ch = (
        await t.api.post(
          '/api/v1/channels',
          {
            kind: 'widget',
            name: 'Closed shop',
            agent_ids: [agent.id],
            webhook_url: ownerOffline.url,
            webhook_events: ['offline_message'],
          },
          ADMIN_TOKEN,
        )
      ).body;
      const { session } = await visitor(ch.public_id);
      const refused = await t.api.post(`/widget-api/${ch.public_id}/offline-messages`, { name: 'Olly', message: 'Call me back' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/email or phone/);
      expect((await t.api.post(`/widget-api/${ch.public_id}/offline-messages`, { email: 'not-mail', message: 'x' })).status).toBe(400);
      expect((await t.api.post(`/widget-api/${ch.public_id}/offline-messages`, { email: 'olly@example.com', message: '  ' })).status).toBe(
        400,
      );

      const ok = await t.api.request('POST', `/widget-api/${ch.public_id}/offline-messages`, {
        body: { name: 'Olly', email: 'olly@example.com', message: 'Do you have size 44?' },
        headers: { 'x-visitor-token': session.visitor_token },
      });
      expect(ok).toMatchObject({ status: 201, body: { result: 'ok', offline_message_id: expect.any(String) } });
      expect(ok.headers.get('access-control-allow-origin')).toBe('*');

      const list = await t.api.get('/api/v1/offline-messages', agent.token);
      expect(list.body.offline_messages[0]).toMatchObject({
        channel_id: ch.id,
        visitor_id: session.visitor_id,
        name: 'Olly',
        email: 'olly@example.com',
        message: 'Do you have size 44?',
      });
      await ownerOffline.waitFor(1);
      const hook = ownerOffline.received[0]!.body;
      expect(hook).toMatchObject({
        event_name: 'offline_message',
        offline_message_id: ok.body.offline_message_id,
        message: 'Do you have size 44?',
        widget_id: ch.public_id,
        visitor: { name: 'Olly', email: 'olly@example.com', number: String(session.visitor_number) },
      });
      expect(hook).not.toHaveProperty('chat_id');
      expect(hook).not.toHaveProperty('department');
      const other = await createAgent(t.api);
      expect((await t.api.get('/api/v1/offline-messages', other.token)).body.offline_messages).toEqual([]);
    } finally {
      await ownerOffline.close();
    }
  });

  it('retries a 5xx with the same event id, and takes any answer with a result as final', async () => {
    let calls = 0;
    owner.setResponder(() => (++calls === 1 ? { status: 503 } : { status: 200, body: { result: 'FAILURE' } }));
    const quick = await startTestServer({ SVC_WEBHOOK_TIMEOUT_MS: '500', SVC_WEBHOOK_RETRY_MS: '100' });
    try {
      const a = await createAgent(quick.api);
      const w = (
        await quick.api.post('/api/v1/channels', { kind: 'widget', name: 'R', agent_ids: [a.id], webhook_url: owner.url }, ADMIN_TOKEN)
      ).body;
      const { socket } = await visitor(w.public_id, quick.base);
      await socket.emitWithAck('message:send', { client_msg_id: 'retry-hook-01', text: 'hi' });
      const before = owner.received.length;
      await socket.emitWithAck('contact:set', { name: 'Rita' });
      await owner.waitFor(before + 2);
      const [first, second] = owner.received.slice(before);
      expect(second!.body.event_id).toBe(first!.body.event_id);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      // FAILURE is an answer: no third attempt.
      await new Promise((r) => setTimeout(r, 800));
      expect(owner.received.length).toBe(before + 2);
    } finally {
      await quick.dispose();
      owner.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
    }
  });
});
