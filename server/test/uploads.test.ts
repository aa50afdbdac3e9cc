import http from 'node:http';
import { VISITOR_NAMESPACE, type VisitorClientEvents, type VisitorServerEvents, type WidgetSession } from '@svc/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

let t: TestServer;
let agent: TestAgent;
let widget: { public_id: string };
let socket: Socket<VisitorServerEvents, VisitorClientEvents>;
let session: WidgetSession;

const upload = (path: string, body: Buffer, headers: Record<string, string> = {}) =>
  fetch(`${t.base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream', ...headers } });

beforeAll(async () => {
  t = await startTestServer();
  agent = await createAgent(t.api);
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [agent.id] }, ADMIN_TOKEN)).body;
  socket = io(`${t.base}${VISITOR_NAMESPACE}`, { auth: { widget_id: widget.public_id }, transports: ['websocket'], reconnection: false });
  session = await new Promise((resolve) => socket.once('session', resolve));
});
afterAll(async () => {
  socket.disconnect();
  await t.dispose();
});

describe('agent uploads', () => {
  it('stores an image and serves it from an unguessable URL as inert content', async () => {
    const res = await upload('/api/v1/uploads?name=../../etc/cat photo.png', PNG, { authorization: `Bearer ${agent.token}` });
    expect(res.status).toBe(201);
    const body: any = await res.json();
    expect(body).toMatchObject({ type: 'photo', file_name: 'cat photo.png', file_size: PNG.length, content_type: 'image/png' });
    expect(body.file).toMatch(new RegExp(`^${t.base}/files/[\\w-]{24}/cat%20photo\\.png$`));
    const served = await fetch(body.file);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('keeps the end of a name too long for the file system, in whole characters', async () => {
    // 110 CJK characters are 330 bytes in UTF-8, more than the 255 a file name may have.
    const name = `${'報告書'.repeat(36)}草案.png`;
    const res = await upload(`/api/v1/uploads?name=${encodeURIComponent(name)}`, PNG, { authorization: `Bearer ${agent.token}` });
    expect(res.status).toBe(201);
    const body: any = await res.json();
    expect(name.endsWith(body.file_name)).toBe(true);
    expect(body.file_name).toMatch(/草案\.png$/);
    expect(Buffer.byteLength(body.file_name)).toBeLessThanOrEqual(200);
    expect((await fetch(body.file)).status).toBe(200);
  });

  it('refuses files whose bytes are not an accepted type, whatever their name', async () => {
    const res = await upload('/api/v1/uploads?name=logo.png', SVG, { authorization: `Bearer ${agent.token}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe('invalid_request');
  });

  it('answers 413 over 10 MB, 401 without a token and 404 for an unknown file', async () => {
    const big = await upload('/api/v1/uploads?name=big.pdf', Buffer.alloc(10 * 1024 * 1024 + 1), {
      authorization: `Bearer ${agent.token}`,
    });
    expect(big.status).toBe(413);
    expect((await upload('/api/v1/uploads?name=a.png', PNG)).status).toBe(401);
    expect((await fetch(`${t.base}/files/${'a'.repeat(24)}/x.png`)).status).toBe(404);
  });
});

describe('downloads', () => {
  it("a reader who leaves mid-download puts no error on the operator's console", async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(4 * 1024 * 1024)]);
    const res = await upload('/api/v1/uploads?name=big.png', big, { authorization: `Bearer ${agent.token}` });
    expect(res.status).toBe(201);
    const { file } = (await res.json()) as { file: string };
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // The first bytes arrive, then the reader is gone: the server's file stream meets a closed connection.
      await new Promise<void>((resolve, reject) => {
        const req = http.get(file, (response) => response.once('data', () => (req.destroy(), resolve())));
        req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(printed).not.toHaveBeenCalled();
      // Read to the end: an unread body keeps its connection busy, and the server's stop waits for it.
      const again = await fetch(file);
      expect(again.status).toBe(200);
      expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(0);
    } finally {
      printed.mockRestore();
    }
  });
});

describe('visitor uploads', () => {
  it('lets a visitor attach an uploaded file, which the agent sees as a photo message', async () => {
    const res = await upload(`/widget-api/${widget.public_id}/uploads?name=receipt.png`, PNG, { 'x-visitor-token': session.visitor_token });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const attachment: any = await res.json();
    const ack = await socket.emitWithAck('message:send', {
      client_msg_id: 'upload-0001',
      text: 'my receipt',
      // What the visitor claims about the file is not taken: the stored file says what it is.
      attachment: { type: 'document', file: attachment.file, file_name: 'forged.exe', file_size: 999 },
    });
    expect(ack).toMatchObject({ ok: true, value: { type: 'photo', text: 'my receipt', file: attachment.file } });
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find((c: any) => c.client.id === session.visitor_id);
    const [message] = (await t.api.get(`/api/v1/chats/${chat.id}/messages`, agent.token)).body.messages;
    expect(message).toMatchObject({
      type: 'photo',
      file: attachment.file,
      file_name: 'receipt.png',
      file_size: PNG.length,
      text: 'my receipt',
    });
  });

  it('lets an agent send the answer of an upload as a message, unchanged', async () => {
    const res = await upload('/api/v1/uploads?name=menu.png', PNG, { authorization: `Bearer ${agent.token}` });
    const uploaded: any = await res.json();
    const chat = (await t.api.get('/api/v1/chats?state=open', agent.token)).body.chats.find((c: any) => c.client.id === session.visitor_id);
    const sent = await t.api.post(`/api/v1/chats/${chat.id}/messages`, uploaded, agent.token);
    expect(sent.status).toBe(201);
    expect(sent.body.message).toMatchObject({ type: 'photo', file: uploaded.file, file_name: 'menu.png' });
    expect(sent.body.message).not.toHaveProperty('content_type');
  });

  it('refuses an attachment that points anywhere but this service', async () => {
    const ack = await socket.emitWithAck('message:send', {
      client_msg_id: 'upload-0002',
      attachment: { type: 'photo', file: 'https://evil.example/x.png', file_name: 'x.png', file_size: 1 },
    });
    expect(ack).toEqual({ ok: false, error: 'attachments must be uploaded to this service first' });
  });

  it('answers 404 to an upload without a valid visitor token', async () => {
    expect((await upload(`/widget-api/${widget.public_id}/uploads?name=a.png`, PNG, { 'x-visitor-token': 'forged' })).status).toBe(404);
  });
});
