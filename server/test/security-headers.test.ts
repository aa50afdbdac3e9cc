import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type TestAgent } from './support/fixtures.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

// Issue 19: the headers browsers need, per kind of route (server/src/http/security-headers.ts).
// Stand-ins for the built front ends: the headers are the server's, whatever the files hold.
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-static-'));
for (const [file, text] of Object.entries({
  'demo-site/dist/console/index.html': '<!doctype html><title>Console</title>',
  'demo-site/shop/index.html': '<!doctype html><title>Shop</title><!--SVC_EMBED-->',
  'widget/dist/frame.html': '<!doctype html><title>Chat</title>',
  'widget/dist/loader.js': '',
  'server/dist/api-docs/index.html': '<!doctype html><title>API reference</title>',
})) {
  fs.mkdirSync(path.dirname(path.join(staticDir, file)), { recursive: true });
  fs.writeFileSync(path.join(staticDir, file), text);
}

let t: TestServer;
let agent: TestAgent;
beforeAll(async () => {
  t = await startTestServer({ SVC_STATIC_DIR: staticDir });
  agent = await createAgent(t.api);
});
afterAll(async () => {
  await t.dispose();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

/** A Content-Security-Policy as a map of directive to its sources. */
const directives = (header: string | null) =>
  new Map(
    (header ?? '')
      .split(';')
      .filter((d) => d.trim())
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([name, ...v]) => [name, v]),
  );

describe('the console and its admin panel', () => {
  it('allow only their own scripts and styles, this origin and its socket, and no framing', async () => {
    const res = await t.api.get('/console/');
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get('content-security-policy'));
    const host = new URL(t.base).host;
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect([...csp.values()].flat()).not.toContain("'unsafe-inline'");
    expect([...csp.values()].flat()).not.toContain("'unsafe-eval'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('send nosniff, the referrer policy and a Permissions-Policy that denies camera, microphone and location', async () => {
    const res = await t.api.get('/console/');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const permissions = res.headers.get('permissions-policy') ?? '';
    for (const feature of ['camera', 'microphone', 'geolocation']) expect(permissions).toContain(`${feature}=()`);
  });

  it('send no Strict-Transport-Security over plain http', async () => {
    expect((await t.api.get('/console/')).headers.get('strict-transport-security')).toBeNull();
  });
});

describe('the demo shop', () => {
  it('has its own strict policy and may not be framed', async () => {
    const res = await t.api.get('/demo/');
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('frame-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('the API reference', () => {
  it('may run only its own script, fetch only this origin, and never eval or be framed', async () => {
    const res = await t.api.get('/docs/api/');
    expect(res.status).toBe(200);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('worker-src')).toEqual(['blob:']);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect([...csp.values()].flat()).not.toContain("'unsafe-eval'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it("leaves the console's policy as strict as it was", async () => {
    const csp = directives((await t.api.get('/console/')).headers.get('content-security-policy'));
    expect(csp.get('style-src')).toEqual(["'self'"]);
    expect(csp.has('worker-src')).toBe(false);
  });
});

describe('widget files', () => {
  it('the chat frame keeps its own policy and no X-Frame-Options, so the sites listed may frame it', async () => {
    const res = await t.api.get('/widget/frame.html?w=x');
    expect(directives(res.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the loader carries no policy of ours and may be loaded by any site', async () => {
    const res = await t.api.get('/widget/loader.js');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('cross-origin-resource-policy')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('API answers', () => {
  it('carry nosniff and are not stored by any cache, errors included', async () => {
    for (const res of [await t.api.get('/api/v1/me', agent.token), await t.api.get('/api/v1/me'), await t.api.get('/no-such-path')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(directives(res.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
    }
  });

  it('an uploaded file keeps its own caching and sandbox', async () => {
    const uploaded = await fetch(`${t.base}/api/v1/uploads?name=a.txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.token}` },
      body: 'hello',
    });
    const file = await fetch(((await uploaded.json()) as { file: string }).file);
    expect(file.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(file.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });
});

describe('behind https (SVC_PUBLIC_URL)', () => {
  it('the console asks browsers to use https only', async () => {
    const secure = await startTestServer({ SVC_STATIC_DIR: staticDir, SVC_PUBLIC_URL: 'https://chat.example.com' });
    try {
      expect((await secure.api.get('/console/')).headers.get('strict-transport-security')).toBe('max-age=31536000');
    } finally {
      await secure.dispose();
    }
  });
});
