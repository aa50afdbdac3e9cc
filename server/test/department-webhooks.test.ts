import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let owner: Awaited<ReturnType<typeof startFakeIntegrator>>;
let agent: TestAgent;
let widget: any;
const sockets: Socket[] = [];

async function visitor() {
  const socket: Socket<VisitorServerEvents, VisitorClientEvents> = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widget.public_id },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  return { socket, session };
}

async function openChat(v: Awaited<ReturnType<typeof visitor>>, text: string) {
  await v.socket.emitWithAck('message:send', { client_msg_id: `msg-${Math.random().toString(36).slice(2, 12)}`, text });
  const chats = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats;
  return chats.find((c: any) => c.client.id === v.session.visitor_id);
}

/** Waits for the owner to have received the event for the chat (webhooks leave through the outbox). */
async function hook(eventName: string, chatId?: number) {
  for (let i = 0; i < 200; i++) {
    const found = owner.received.find((r) => r.body?.event_name === eventName && (chatId === undefined || r.body.chat_id === chatId));
    if (found) return found.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no ${eventName} for chat ${chatId}`);
}

beforeAll(async () => {
  owner = await startFakeIntegrator((r) =>
    r.body?.event_name === 'chat_accepted'
      ? { status: 200, body: { result: 'ok', enable_assign: true, crm_link: 'https://crm.example.com/cards/9' } }
      : { status: 200, body: { result: 'ok' } },
  );
  t = await startTestServer({ SVC_WEBHOOK_TIMEOUT_MS: '1000' });
  agent = await createAgent(t.api, { name: 'Dora' });
  widget = (
    await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Dept shop', agent_ids: [agent.id], webhook_url: owner.url }, ADMIN_TOKEN)
  ).body;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await owner.close();
});

describe('server webhooks of a chat in a department', () => {
  it('carry department {id, name} in chat_accepted, chat_assigned, chat_updated and chat_finished', async () => {
    const dept = (await t.api.post('/api/v1/departments', { name: 'Wholesale', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
    const v = await visitor();
    const chat = await openChat(v, 'Do you sell by the pallet?');
    await t.api.put(`/api/v1/chats/${chat.id}/department`, { department_id: dept.id }, agent.token);
    const expected = { department: { id: dept.id, name: 'Wholesale' } };

    await t.api.post(`/api/v1/chats/${chat.id}/accept`, undefined, agent.token);
    expect(await hook('chat_accepted', chat.id)).toMatchObject(expected);

    await v.socket.emitWithAck('contact:set', { name: 'Pal', email: 'pal@example.com' });
    expect(await hook('chat_updated', chat.id)).toMatchObject(expected);

    let bound;
    for (let i = 0; i < 100 && bound?.status !== 200; i++) {
      bound = await t.api.post(`/api/v1/chats/${chat.id}/crm-assign`, undefined, agent.token);
      if (bound.status !== 200) await new Promise((r) => setTimeout(r, 25));
    }
    expect(await hook('chat_assigned', chat.id)).toMatchObject({ ...expected, assign_to: 'https://crm.example.com/cards/9' });

    await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, agent.token);
    expect(await hook('chat_finished', chat.id)).toMatchObject(expected);
  });

  it('leave department out when the chat has none', async () => {
    const v = await visitor();
    const chat = await openChat(v, 'Just looking');
    await t.api.post(`/api/v1/chats/${chat.id}/accept`, undefined, agent.token);
    await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, agent.token);
    expect(await hook('chat_accepted', chat.id)).not.toHaveProperty('department');
    expect(await hook('chat_finished', chat.id)).not.toHaveProperty('department');
  });

  it('never put department in offline_message, even for a visitor whose chat had one', async () => {
    const dept = (await t.api.post('/api/v1/departments', { name: 'After hours' }, ADMIN_TOKEN)).body;
    const v = await visitor();
    const chat = await openChat(v, 'Anyone there?');
    await t.api.put(`/api/v1/chats/${chat.id}/department`, { department_id: dept.id }, agent.token);
    const sent = await t.api.request('POST', `/widget-api/${widget.public_id}/offline-messages`, {
      body: { name: 'Nina', email: 'nina@example.com', message: 'Call me tomorrow' },
      headers: { 'x-visitor-token': v.session.visitor_token },
    });
    expect(sent.status).toBe(201);
    const offline = await hook('offline_message');
    expect(offline).toMatchObject({ event_name: 'offline_message', message: 'Call me tomorrow' });
    expect(offline).not.toHaveProperty('department');
    expect(offline).not.toHaveProperty('chat_id');
  });
});
