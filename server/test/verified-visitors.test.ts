import { createHmac } from 'node:crypto';
import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { createAgent, createChatApiChannel, type TestAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

type VisitorSocket = Socket<VisitorServerEvents, VisitorClientEvents>;
let t: TestServer;
let agent: TestAgent;
let widget: { id: number; public_id: string };
const sockets: VisitorSocket[] = [];

/** What the site's server does: sign the user id with the channel's identity secret (docs/widget.md). */
const sign = (secret: string, token: string) => createHmac('sha256', secret).update(token).digest('hex');

async function visitor() {
  const socket: VisitorSocket = io(`${t.base}${VISITOR_NAMESPACE}`, {
    auth: { widget_id: widget.public_id },
    transports: ['websocket'],
    reconnection: false,
  });
  sockets.push(socket);
  const session = await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
  return { socket, session };
}
const clientOf = async (visitorId: string) =>
  (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find((c: any) => c.client.id === visitorId)?.client;
const identity = async () => (await t.api.get(`/api/v1/channels/${widget.id}/identity`, ADMIN_TOKEN)).body;

beforeAll(async () => {
  t = await startTestServer();
  agent = await createAgent(t.api);
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.dispose();
});

describe('verified visitors', () => {
  it('a channel has an identity secret and does not require verification at first', async () => {
    const first = await identity();
    expect(first.identity_secret).toMatch(/^[\w-]{40,}$/);
    expect(first.require_verified_users).toBe(false);
    expect((await identity()).identity_secret).toBe(first.identity_secret);
    expect((await t.api.get(`/widget-api/${widget.public_id}/settings`)).body.verify_users).toBe(false);
  });

  it('marks a signed token verified and an unsigned one not; refuses a wrong signature and keeps the token it had', async () => {
    const { identity_secret: secret } = await identity();
    const v = await visitor();
    expect(await v.socket.emitWithAck('message:send', { client_msg_id: 'msg-000001', text: 'hi' })).toMatchObject({ ok: true });
    expect(await v.socket.emitWithAck('user-token:set', 'plain-7')).toEqual({ ok: true });
    expect(await clientOf(v.session.visitor_id)).toMatchObject({ user_token: 'plain-7', user_verified: false });

    expect(await v.socket.emitWithAck('user-token:set', { token: 'user-7', signature: sign(secret, 'user-7').toUpperCase() })).toEqual({
      ok: true,
    });
    expect(await clientOf(v.session.visitor_id)).toMatchObject({ user_token: 'user-7', user_verified: true });

    expect(await v.socket.emitWithAck('user-token:set', { token: 'admin-1', signature: sign(secret, 'user-7') })).toEqual({
      ok: false,
      error: 'user token: the signature does not match',
    });
    expect(await clientOf(v.session.visitor_id)).toMatchObject({ user_token: 'user-7', user_verified: true });
  });

  it('a channel that requires verification refuses unsigned tokens; a rotated secret stops old signatures', async () => {
    const patched = await t.api.patch(`/api/v1/channels/${widget.id}/identity`, { require_verified_users: true }, ADMIN_TOKEN);
    expect(patched.body.require_verified_users).toBe(true);
    expect((await t.api.get(`/widget-api/${widget.public_id}/settings`)).body.verify_users).toBe(true);
    const v = await visitor();
    expect(await v.socket.emitWithAck('user-token:set', 'plain-8')).toEqual({
      ok: false,
      error: 'user token: this site takes only signed user tokens',
    });
    const old = (await identity()).identity_secret;
    const rotated = (await t.api.post(`/api/v1/channels/${widget.id}/identity/rotate-secret`, {}, ADMIN_TOKEN)).body.identity_secret;
    expect(rotated).not.toBe(old);
    expect((await v.socket.emitWithAck('user-token:set', { token: 'user-8', signature: sign(old, 'user-8') })).ok).toBe(false);
    expect(await v.socket.emitWithAck('user-token:set', { token: 'user-8', signature: sign(rotated, 'user-8') })).toEqual({ ok: true });
  });

  it('answers 400 for a Chat API channel, 404 for an unknown one, 400 for a bad body', async () => {
    const integrator = await startFakeIntegrator();
    try {
      const chatApi = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [] });
      const res = await t.api.get(`/api/v1/channels/${chatApi.id}/identity`, ADMIN_TOKEN);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('identity: only widget channels have visitors to verify');
    } finally {
      await integrator.close();
    }
    expect((await t.api.get('/api/v1/channels/99999/identity', ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.patch(`/api/v1/channels/${widget.id}/identity`, { require_verified_users: 'yes' }, ADMIN_TOKEN)).status).toBe(400);
  });
});
