import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../../src/openapi/openapi-document.ts';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

type Json = Record<string, any>;

/** The route and operation `GET /api/v1/chats/7` falls under, as a client reading the document would find it. */
function matcher(doc: OpenApiDocument) {
  const templates = Object.keys(doc.paths)
    .map((template) => ({
      template,
      params: (template.match(/\{/g) ?? []).length,
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.params - b.params);
  return (method: string, url: string) => {
    const pathname = new URL(url, 'http://x').pathname;
    const found = templates.find((t) => t.pattern.test(pathname) && doc.paths[t.template]![method.toLowerCase()]);
    return found && { template: found.template, operation: doc.paths[found.template]![method.toLowerCase()] as Json };
  };
}

/**
 * Checks bodies against the schemas of the document with ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect), as
 * a generated client would expect them. Each check returns the problems found; none means it conforms.
 */
export function openApiChecker(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new Map<object, ValidateFunction>();
  const problems = (schema: Json | undefined, body: unknown, what: string): string[] => {
    if (!schema) return [`${what}: the document has no schema for it`];
    let validate = compiled.get(schema);
    if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${what}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  };
  const find = matcher(doc);
  const jsonSchema = (o: Json | undefined, type = 'application/json') => o?.content?.[type]?.schema as Json | undefined;

  return {
    find,
    request(method: string, url: string, body: unknown): string[] {
      const found = find(method, url);
      if (!found) return [`${method} ${url}: no operation in the document`];
      const what = `${method} ${found.template} request`;
      if (body === undefined) return found.operation.requestBody?.required ? [`${what}: a body is required`] : [];
      return problems(jsonSchema(found.operation.requestBody), body, what);
    },
    response(method: string, url: string, status: number, body: unknown, contentType = 'application/json'): string[] {
      const found = find(method, url);
      if (!found) return [`${method} ${url}: no operation in the document`];
      const responses = found.operation.responses as Json;
      const answer = responses[status] ?? responses[`${String(status)[0]}XX`];
      const what = `${method} ${found.template} ${status}`;
      if (!answer) return [`${what}: status not in the document`];
      if (!answer.content) return body === undefined || body === '' ? [] : [`${what}: the document says no body`];
      const type = contentType.split(';')[0]!.trim();
      if (!answer.content[type]) return [`${what}: the document has no ${type} answer`];
      return problems(jsonSchema(answer, type), body, what);
    },
    webhook(name: string, body: unknown): string[] {
      return problems(jsonSchema((doc.webhooks as Json)[name]?.post?.requestBody), body, `webhook ${name}`);
    },
  };
}
