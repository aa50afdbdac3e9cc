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

/** A visitor whose address, as the reverse proxy in front of the server says, is `address`. */
async function visitorFrom(address: string) {
  const socket: Socket<VisitorServerEvents, VisitorClientEvents> = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widget.public_id },
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { 'x-forwarded-for': address },
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  return { socket, session };
}

beforeAll(async () => {
  owner = await startFakeIntegrator();
  t = await startTestServer({ SVC_TRUST_PROXY: '1' });
  agent = await createAgent(t.api);
  widget = (
    await t.api.post(
      '/api/v1/channels',
      { kind: 'widget', name: 'Geo shop', agent_ids: [agent.id], webhook_url: owner.url, webhook_events: ['chat_finished'] },
      ADMIN_TOKEN,
    )
  ).body;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
  await owner.close();
});

describe("the visitor's geoip", () => {
  it('is looked up from the address of the page view and shown to agents and in the webhook session', async () => {
    const v = await visitorFrom('8.8.8.8');
    v.socket.emit('page:view', { url: 'https://shop.example/', user_agent: 'UA/geo' });
    await v.socket.emitWithAck('message:send', { client_msg_id: 'geo-msg-0001', text: 'Do you ship to me?' });
    let chat: any;
    for (let i = 0; i < 100 && !chat?.client.geoip.country_code; i++) {
      chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find((c: any) => c.client.id === v.session.visitor_id);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(chat.client.ip).toBe('8.8.8.8');
    expect(chat.client.geoip).toMatchObject({ country_code: 'US', country: 'United States' });

    await t.api.post(`/api/v1/chats/${chat.id}/close`, {}, agent.token);
    await owner.waitFor(1);
    const finished = owner.received[0]!.body;
    expect(finished.session).toMatchObject({ ip_addr: '8.8.8.8', geoip: { country_code: 'US', country: 'United States' } });
    expect(typeof finished.session.geoip.latitude).toBe('string');
  });

  it('is empty for a private address', async () => {
    const v = await visitorFrom('192.168.1.20');
    v.socket.emit('page:view', { url: 'https://shop.example/lan' });
    await v.socket.emitWithAck('message:send', { client_msg_id: 'geo-msg-0002', text: 'From the office' });
    let chat: any;
    for (let i = 0; i < 100 && !chat?.client.ip; i++) {
      chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find((c: any) => c.client.id === v.session.visitor_id);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(chat.client.ip).toBe('192.168.1.20');
    expect(chat.client.geoip).toEqual({});
  });
});
