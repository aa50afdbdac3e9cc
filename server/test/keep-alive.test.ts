import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';

// A proxy in front (nginx's upstream keepalive, a cloud load balancer) keeps idle connections to a node for 60 s
// and sends the next request on one of them: the node must not have closed it meanwhile, or that request fails
// (nginx answers 502 for a POST it cannot send again).
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.stop();
});

function get(agent: http.Agent, path: string): Promise<{ status: number; keepAlive: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${t.base}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode!, keepAlive: res.headers['keep-alive'] as string | undefined, reused: req.reusedSocket }),
      );
    });
    req.on('error', reject);
  });
}

describe('keep-alive', () => {
  it('tells a client its idle connections stay open 65 s, and serves one again after more than Node’s default 5 s', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent, '/healthz');
      expect(first).toMatchObject({ status: 200, keepAlive: 'timeout=65', reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await get(agent, '/healthz')).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});

describe('stopping', () => {
  // Node's closeIdleConnections() at the start of a stop now and then missed a connection that had served these
  // two requests (one stop in two to four), which then held the stop for its whole keep-alive time (65 s).
  it('does not wait for connections left idle by their clients', async () => {
    const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-static-'));
    fs.mkdirSync(path.join(staticDir, 'widget/dist'), { recursive: true });
    for (const file of ['loader.js', 'svc-api.d.ts']) fs.writeFileSync(path.join(staticDir, 'widget/dist', file), '"text"');
    try {
      for (let i = 0; i < 12; i++) {
        const server = await startTestServer({ SVC_STATIC_DIR: staticDir });
        await server.api.get('/widget/svc-api.d.ts');
        await server.api.get('/widget/loader.js');
        await server.dispose();
      }
    } finally {
      fs.rmSync(staticDir, { recursive: true, force: true });
    }
  }, 20_000);
});
