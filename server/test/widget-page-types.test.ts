import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';

// Issue 18: the page authors' declarations are served beside the loader (the real file is checked by
// e2e/tests/widget-page-types.spec.ts; these stand-ins are enough for the headers).
const declarations = 'export interface SvcApi {\n  open(): void;\n}\n';
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-static-'));
for (const [file, text] of Object.entries({ 'widget/dist/loader.js': '(()=>{})();', 'widget/dist/svc-api.d.ts': declarations })) {
  fs.mkdirSync(path.dirname(path.join(staticDir, file)), { recursive: true });
  fs.writeFileSync(path.join(staticDir, file), text);
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ SVC_STATIC_DIR: staticDir });
});
afterAll(async () => {
  await t.dispose();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

describe('GET /widget/svc-api.d.ts', () => {
  it('answers the declarations as TypeScript text, not as a video stream', async () => {
    const res = await t.api.get('/widget/svc-api.d.ts');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/typescript; charset=utf-8');
    expect(res.body).toBe(declarations);
  });

  it('is cached as the loader is', async () => {
    const [types, loader] = [await t.api.get('/widget/svc-api.d.ts'), await t.api.get('/widget/loader.js')];
    expect(types.headers.get('cache-control')).toBeTruthy();
    expect(types.headers.get('cache-control')).toBe(loader.headers.get('cache-control'));
    expect(types.headers.get('last-modified')).toBeTruthy();
  });
});
