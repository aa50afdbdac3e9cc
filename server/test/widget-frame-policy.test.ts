import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

// The built frame stands in for widget/dist: the policy is the server's, whatever the page holds.
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-static-'));
fs.mkdirSync(path.join(staticDir, 'widget/dist'), { recursive: true });
fs.writeFileSync(path.join(staticDir, 'widget/dist/frame.html'), '<!doctype html><title>Chat</title>');
fs.writeFileSync(path.join(staticDir, 'widget/dist/loader.js'), '');

let t: TestServer;
let widget: { id: number; public_id: string };
let chatApi: { id: number };

beforeAll(async () => {
  t = await startTestServer({ SVC_STATIC_DIR: staticDir });
  widget = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Shop', agent_ids: [] }, ADMIN_TOKEN)).body;
  chatApi = (
    await t.api.post(
      '/api/v1/channels',
      { kind: 'chat_api', name: 'App', webhook_url: 'http://127.0.0.1:9/hook', agent_ids: [] },
      ADMIN_TOKEN,
    )
  ).body;
});
afterAll(async () => {
  await t.dispose();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

/** The frame's policy as a map of directive to its sources. */
async function framePolicy(widgetId = widget.public_id) {
  const res = await t.api.get(`/widget/frame.html?w=${widgetId}`);
  expect(res.status).toBe(200);
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([name, ...v]) => [name, v]),
  );
}
const setSites = (id: number, allowed_sites: unknown) => t.api.patch(`/api/v1/channels/${id}`, { allowed_sites }, ADMIN_TOKEN);

describe("the chat frame's own Content-Security-Policy", () => {
  it('allows only its own scripts and styles, never inline code or eval', async () => {
    const policy = await framePolicy();
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    const all = [...policy.values()].flat();
    expect(all).not.toContain("'unsafe-inline'");
    expect(all).not.toContain("'unsafe-eval'");
  });

  it("lets the frame talk to the service's own origin over HTTP and WebSocket, and show media from http(s) URLs", async () => {
    const policy = await framePolicy();
    const host = new URL(t.base).host;
    expect(policy.get('connect-src')).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
    expect(policy.get('img-src')).toEqual(["'self'", 'https:', 'http:']);
    expect(policy.get('media-src')).toEqual(["'self'", 'https:', 'http:']);
  });

  it("is not sent with the loader, which runs in the site's page under the site's policy", async () => {
    const res = await t.api.get('/widget/loader.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

describe('allowed sites (frame-ancestors)', () => {
  it('a new widget channel lists none, and any site may frame its chat', async () => {
    expect((await t.api.get(`/api/v1/channels/${widget.id}`, ADMIN_TOKEN)).body.allowed_sites).toEqual([]);
    expect((await framePolicy()).has('frame-ancestors')).toBe(false);
  });

  it('once listed, only those origins and the service itself may frame the chat; the list is shown as the browser writes origins', async () => {
    const res = await setSites(widget.id, ['https://Shop.Example/', 'http://localhost:8080']);
    expect(res.status).toBe(200);
    expect(res.body.allowed_sites).toEqual(['http://localhost:8080', 'https://shop.example']);
    expect((await t.api.get(`/api/v1/channels/${widget.id}`, ADMIN_TOKEN)).body.allowed_sites).toEqual([
      'http://localhost:8080',
      'https://shop.example',
    ]);
    expect((await framePolicy()).get('frame-ancestors')).toEqual(["'self'", 'http://localhost:8080', 'https://shop.example']);
  });

  it("another channel's frame, or a frame for no known widget, keeps its own (empty) list", async () => {
    const other = (await t.api.post('/api/v1/channels', { kind: 'widget', name: 'Blog', agent_ids: [] }, ADMIN_TOKEN)).body;
    expect((await framePolicy(other.public_id)).has('frame-ancestors')).toBe(false);
    expect((await framePolicy('nosuchwidget')).has('frame-ancestors')).toBe(false);
  });

  it('emptying the list lets any site frame the chat again', async () => {
    await setSites(widget.id, ['https://shop.example']);
    expect((await setSites(widget.id, [])).body.allowed_sites).toEqual([]);
    expect((await framePolicy()).has('frame-ancestors')).toBe(false);
  });

  it('can be given when the channel is created', async () => {
    const created = await t.api.post(
      '/api/v1/channels',
      { kind: 'widget', name: 'Store', agent_ids: [], allowed_sites: ['https://store.example'] },
      ADMIN_TOKEN,
    );
    expect(created.status).toBe(201);
    expect(created.body.allowed_sites).toEqual(['https://store.example']);
    expect((await framePolicy(created.body.public_id)).get('frame-ancestors')).toEqual(["'self'", 'https://store.example']);
  });

  it.each([
    ['a path', 'https://shop.example/shop'],
    ['no scheme', 'shop.example'],
    ['another scheme', 'javascript://shop.example'],
    ['a policy separator', 'https://a;script-src.example'],
    ['a query', 'https://shop.example?x'],
    ['a wildcard', '*'],
  ])('refuses a site with %s, naming the field, and keeps the list', async (_, site) => {
    await setSites(widget.id, ['https://shop.example']);
    const res = await setSites(widget.id, ['https://ok.example', site]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain('allowed_sites.1');
    expect((await t.api.get(`/api/v1/channels/${widget.id}`, ADMIN_TOKEN)).body.allowed_sites).toEqual(['https://shop.example']);
  });

  it('refuses more than 50 sites, and a list that is not a list', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `https://s${i}.example`);
    expect((await setSites(widget.id, many)).body.error.message).toContain('allowed_sites');
    expect((await setSites(widget.id, 'https://shop.example')).status).toBe(400);
  });

  it('a Chat API channel has no sites', async () => {
    const res = await setSites(chatApi.id, ['https://shop.example']);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('allowed_sites');
  });
});
