import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

let t: TestServer;
let agent: TestAgent;
let widget: { id: number; public_id: string };
const sockets: Socket[] = [];

const putPhoto = (path: string, body: Buffer, token?: string) =>
  fetch(`${t.base}${path}?name=me.png`, {
    method: 'PUT',
    body,
    headers: { 'content-type': 'application/octet-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

beforeAll(async () => {
  t = await startTestServer();
  agent = await createAgent(t.api);
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await t.dispose();
});

describe("an agent's own photo (PUT /api/v1/me/photo)", () => {
  it('stores the image under our origin, sets it as the photo and serves it as an image', async () => {
    const res = await putPhoto('/api/v1/me/photo', PNG, agent.token);
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.agent.photo).toMatch(new RegExp(`^${t.base}/files/[\\w-]{24}/me\\.png$`));
    expect((await t.api.get('/api/v1/me', agent.token)).body.agent.photo).toBe(body.agent.photo);
    const served = await fetch(body.agent.photo);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('is what a visitor sees when the agent takes the chat and replies', async () => {
    const photo = (await t.api.get('/api/v1/me', agent.token)).body.agent.photo;
    const socket: Socket<VisitorServerEvents, VisitorClientEvents> = io(`${t.base}${VISITOR_NAMESPACE}`, {
      auth: { widget_id: widget.public_id },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<WidgetSession>((resolve) => socket.once('session', resolve));
    await socket.emitWithAck('message:send', { client_msg_id: 'photo-test-1', text: 'Hello?' });
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats[0];
    const accepted = new Promise((resolve) => socket.once('chat:accepted', resolve));
    const reply = new Promise((resolve) => socket.once('message:new', resolve));
    await t.api.post(`/api/v1/chats/${chat.id}/accept`, undefined, agent.token);
    expect(await accepted).toEqual({ agent: { name: agent.name, photo } });
    await t.api.post(`/api/v1/chats/${chat.id}/messages`, { type: 'text', text: 'Hi!' }, agent.token);
    expect(await reply).toMatchObject({ author: 'agent', agent: { name: agent.name, photo } });
  });

  it.each([
    ['a PDF', PDF, 'Only png, jpeg, gif, webp files are accepted'],
    ['an SVG (it can carry scripts)', SVG, 'Only png, jpeg, gif, webp files are accepted'],
    ['an empty body', Buffer.alloc(0), 'The file is empty'],
  ])('refuses %s with a 400 and keeps the photo it had', async (_, bytes, message) => {
    const before = (await t.api.get('/api/v1/me', agent.token)).body.agent.photo;
    const res = await putPhoto('/api/v1/me/photo', bytes, agent.token);
    expect(res.status).toBe(400);
    const body: any = await res.json();
    expect(body.error).toMatchObject({ code: 'invalid_request' });
    expect(body.error.message).toContain(message);
    expect((await t.api.get('/api/v1/me', agent.token)).body.agent.photo).toBe(before);
  });

  it('refuses a photo over 2 MB with 413, and answers 401 without a token', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]);
    expect((await putPhoto('/api/v1/me/photo', big, agent.token)).status).toBe(413);
    expect((await putPhoto('/api/v1/me/photo', PNG)).status).toBe(401);
  });

  it('DELETE takes the photo away: visitors see initials again', async () => {
    const res = await t.api.delete('/api/v1/me/photo', agent.token);
    expect(res.status).toBe(200);
    expect(res.body.agent.photo).toBeNull();
  });
});

describe("an admin sets any agent's photo (PUT /api/v1/agents/:id/photo)", () => {
  it('with the admin token, not with a plain agent', async () => {
    const other = await createAgent(t.api);
    const byToken = await putPhoto(`/api/v1/agents/${other.id}/photo`, PNG, ADMIN_TOKEN);
    expect(byToken.status).toBe(200);
    const body: any = await byToken.json();
    expect(body).toMatchObject({ id: other.id, channel_ids: [] });
    expect(body.photo).toMatch(/\/files\/[\w-]{24}\/me\.png$/);
    expect((await t.api.get(`/api/v1/agents/${other.id}`, ADMIN_TOKEN)).body.photo).toBe(body.photo);
    expect((await putPhoto(`/api/v1/agents/${other.id}/photo`, PNG, agent.token)).status).toBe(401);
    const cleared = await t.api.delete(`/api/v1/agents/${other.id}/photo`, ADMIN_TOKEN);
    expect(cleared.body.photo).toBeNull();
  });

  it('answers 404 for an unknown agent', async () => {
    expect((await putPhoto('/api/v1/agents/99999/photo', PNG, ADMIN_TOKEN)).status).toBe(404);
    expect((await putPhoto('/api/v1/agents/abc/photo', PNG, ADMIN_TOKEN)).status).toBe(404);
    expect((await t.api.delete('/api/v1/agents/99999/photo', ADMIN_TOKEN)).status).toBe(404);
  });
});
