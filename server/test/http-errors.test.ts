import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from './support/fixtures.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.dispose());

describe('errors of every api', () => {
  it('answers /healthz with 200 {"ok":true}', async () => {
    expect(await t.api.get('/healthz')).toMatchObject({ status: 200, body: { ok: true } });
  });

  it.each(['/api/v1/nothing-here', '/chat-api/secret/channel/nothing-here', '/chat-api/'])(
    'answers 404 not_found as JSON for an unknown route (%s)',
    async (path) => {
      const res = await t.api.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      expect(res.headers.get('content-type')).toMatch(/json/);
    },
  );

  it.each([
    ['DELETE', '/api/v1/agents'],
    ['PUT', '/api/v1/channels'],
    ['GET', '/api/v1/auth/login'],
    ['DELETE', '/healthz'],
    ['PATCH', '/api/v1/chats/1/messages'],
    ['PUT', '/chat-api/secret/channel'],
    ['POST', '/chat-api/secret/channel/status'],
  ])('answers 405 method_not_allowed to %s %s', async (method, path) => {
    const res = await t.api.request(method, path, { token: ADMIN_TOKEN });
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('answers 400 invalid_request to malformed JSON', async () => {
    const res = await t.api.request('POST', '/api/v1/agents', {
      raw: '{"name": "x",',
      token: ADMIN_TOKEN,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'invalid_request', message: 'The request body is not valid JSON' });
  });

  it('answers 413 payload_too_large to a body over the limit', async () => {
    const agent = await createAgent(t.api);
    const res = await t.api.request('POST', '/api/v1/chats/1/messages', {
      raw: JSON.stringify({ type: 'text', text: 'x'.repeat(70_000) }),
      token: agent.token,
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('answers 401 unauthorized_client to an Authorization header that is not a bearer token', async () => {
    const res = await t.api.request('GET', '/api/v1/agents', { headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized_client');
    const agent = await t.api.request('GET', '/api/v1/chats', { headers: { authorization: 'Token abc' } });
    expect(agent.body.error.code).toBe('unauthorized_client');
  });

  it('never leaks a stack trace', async () => {
    const res = await t.api.request('POST', '/api/v1/agents', { raw: '[', token: ADMIN_TOKEN });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts|node_modules/);
  });

  it('takes JSON sent as text/plain', async () => {
    const res = await t.api.request('POST', '/api/v1/auth/login', {
      raw: JSON.stringify({ email: 'none@example.com', password: 'x' }),
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(401);
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After after repeated failed logins from one address', async () => {
    let last;
    for (let i = 0; i < 12; i++) last = await t.api.post('/api/v1/auth/login', { email: 'brute@example.com', password: `guess${i}` });
    expect(last!.status).toBe(429);
    expect(last!.body.error.code).toBe('rate_limited');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
