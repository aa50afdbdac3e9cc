import { errorBodySchema } from '@svc/protocol';
import { z } from 'zod';
import { apiRoutes, apiTags, type ApiRoute, type RawBody, type RouteAuth } from './api-routes.ts';
import { apiWebhooks, webhookTags } from './api-webhooks.ts';

type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };
type Operation = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12, the dialect of OpenAPI 3.1: what a request may hold (`input`, before
 * defaults and transforms) or what an answer holds (`output`). What JSON Schema cannot say (a transform's
 * code, a refinement) is left open rather than refused. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** `/api/v1/chats/:id` -> `/api/v1/chats/{id}` */
export function openApiPath(routerPath: string): string {
  return routerPath.replace(/:(\w+)/g, '{$1}');
}

const isRaw = (b: z.ZodType | RawBody): b is RawBody => 'contentType' in b && !(b instanceof z.ZodType);

function content(body: z.ZodType | RawBody, io: 'input' | 'output') {
  if (isRaw(body)) {
    const schema =
      body.contentType === 'application/octet-stream'
        ? { type: 'string', contentMediaType: body.contentType }
        : jsonSchemaOf(body.schema, io);
    return { [body.contentType]: { schema } };
  }
  return { 'application/json': { schema: jsonSchemaOf(body, io) } };
}

const security: Record<RouteAuth, Record<string, string[]>[] | undefined> = {
  none: [],
  endpoint: [],
  bot_token: [],
  bot_oauth: [{ botAccessToken: [] }],
  admin: [{ adminToken: [] }],
  agent: [{ agentToken: [] }],
  agent_or_admin: [{ agentToken: [] }, { adminToken: [] }],
  metrics: [{ adminToken: [] }, { metricsToken: [] }],
};

const errorResponse = (what: string) => ({
  description: `${what}: \`{"error":{"code","message"}}\`, the code one of invalid_request, invalid_client, unauthorized_client, forbidden, not_found, method_not_allowed, conflict, payload_too_large, rate_limited, internal, overloaded`,
  content: { 'application/json': { schema: jsonSchemaOf(errorBodySchema, 'output') } },
});

function operationId(route: ApiRoute): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function operation(route: ApiRoute): Operation {
  const parameters: Record<string, unknown>[] = [...route.path.matchAll(/:(\w+)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query) {
    const query = jsonSchemaOf(route.query, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
    }
  }
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    const bodies = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
    responses[status] = bodies.length
      ? { description: 'Success', content: Object.assign({}, ...bodies.map((body) => content(body, 'output'))) }
      : { description: 'No body' };
  }
  for (const [status, { why, retryAfter }] of Object.entries(route.refusals ?? {})) {
    responses[status] = {
      description: why,
      content: errorResponse(why).content,
      ...(retryAfter
        ? { headers: { 'Retry-After': { description: 'Seconds to wait before sending again', schema: { type: 'integer', minimum: 1 } } } }
        : {}),
    };
  }
  responses['4XX'] = errorResponse('A refused request');
  responses['5XX'] = errorResponse('A failure of the service');
  return {
    tags: [route.tag],
    summary: route.summary,
    operationId: operationId(route),
    ...(route.auth === 'none' ? {} : { security: security[route.auth] }),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: content(route.body, 'input') } } : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document of every route in `apiRoutes` and every request the service sends (`webhooks`). */
export function buildOpenApiDocument(serverUrl: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of apiRoutes) {
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operation(route) };
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'svc-chat',
      version: 'v1',
      summary: 'Self-hosted customer chat: the Chat API, the Bot API, the admin and agent APIs, and the requests the service sends.',
      description:
        'Errors are JSON `{"error":{"code","message"}}`. Tokens go in `Authorization: Bearer <token>`. ' +
        'Requests the service sends (to integrators, bot providers and site owners) are under `webhooks`.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: serverUrl }],
    tags: [...apiTags, ...Object.values(webhookTags)].map((name) => ({ name })),
    paths,
    webhooks: apiWebhooks(jsonSchemaOf),
    components: {
      securitySchemes: {
        adminToken: { type: 'http', scheme: 'bearer', description: 'SVC_ADMIN_TOKEN, or the API token of an agent whose role is admin.' },
        agentToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An agent token: from POST /api/v1/auth/login, or `token` of POST /api/v1/agents.',
        },
        botAccessToken: {
          type: 'http',
          scheme: 'bearer',
          description: "An access token the service took from the provider's token_url (OAuth 2.0 client credentials) and still holds.",
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'SVC_METRICS_TOKEN, when set.' },
      },
    },
  };
}
