import Router from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiPath, type OpenApiDocument } from '../src/openapi/openapi-document.ts';
import { registeredRoutes, type RegisteredRoute } from '../src/openapi/router-routes.ts';
import { startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
let doc: OpenApiDocument;

beforeAll(async () => {
  t = await startTestServer();
  doc = (await t.api.get('/api/openapi.json')).body;
});
afterAll(async () => {
  await t.dispose();
});

/** What the routers answer and the document does not describe, and the reverse. */
function drift(served: RegisteredRoute[], document: OpenApiDocument) {
  const servedOps = new Set(served.map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`));
  const documentedOps = new Set(
    Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)),
  );
  return {
    undocumented: [...servedOps].filter((op) => !documentedOps.has(op)).sort(),
    unserved: [...documentedOps].filter((op) => !servedOps.has(op)).sort(),
  };
}

describe('GET /api/openapi.json', () => {
  it('answers the document without a token, to any origin, naming this server', async () => {
    const res = await t.api.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.body.openapi).toMatch(/^3\.1\./);
    expect(res.body.servers).toEqual([{ url: t.base }]);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is refused by the validator when it breaks the OpenAPI schema (the check can fail)', async () => {
    const broken = structuredClone(doc);
    // A body parameter, as OpenAPI 2 wrote it: not a place a parameter may be in 3.1.
    (broken.paths['/api/v1/chats']!.get as { parameters: { in: string }[] }).parameters[0]!.in = 'body';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('describes the four APIs and, under webhooks, what the service sends', () => {
    expect(doc.paths['/chat-api/{random}/{publicId}']!.post).toBeDefined();
    expect(doc.paths['/bot/webhooks/{providerId}/{token}']!.post).toBeDefined();
    expect(doc.paths['/api/v1/channels']!.post).toBeDefined();
    expect(doc.paths['/api/v1/chats/{id}/messages']!.get).toBeDefined();
    const webhooks = doc.webhooks as Record<string, { post: { parameters?: { name: string }[] } }>;
    expect(Object.keys(webhooks)).toEqual(
      expect.arrayContaining([
        'chat-api-message',
        'bot-CLIENT_MESSAGE',
        'bot-AGENT_JOINED',
        'chat_accepted',
        'chat_finished',
        'offline_message',
      ]),
    );
    expect(webhooks.chat_finished!.post.parameters?.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
  });
});

describe('the document and the routers', () => {
  it('describe the same routes, method by method', () => {
    expect(t.server.routes.length).toBeGreaterThan(50);
    expect(drift(t.server.routes, doc)).toEqual({ undocumented: [], unserved: [] });
  });

  it('disagree when a route is added to a router without an entry in the route table', () => {
    const extra = new Router();
    extra.get('/api/v1/chats/:id/summary', () => undefined);
    expect(drift([...t.server.routes, ...registeredRoutes(extra)], doc).undocumented).toEqual(['GET /api/v1/chats/{id}/summary']);
  });

  it('disagree when a route is dropped from the routers but not from the table', () => {
    const served = t.server.routes.filter((r) => !(r.method === 'delete' && r.path === '/api/v1/channels/:id'));
    expect(drift(served, doc).unserved).toEqual(['DELETE /api/v1/channels/{id}']);
  });
});
