import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestChannel } from './support/fixtures.ts';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { testDialect } from './support/test-db.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';
const run = promisify(execFile);

let t: TestServer;
let integrator: Awaited<ReturnType<typeof startFakeIntegrator>>;
let channel: TestChannel;
let agentToken: string;

beforeAll(async () => {
  integrator = await startFakeIntegrator();
  t = await startTestServer({ SVC_METRICS_TOKEN: METRICS_TOKEN });
  const agent = await createAgent(t.api);
  agentToken = agent.token;
  channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
});
afterAll(async () => {
  await t.dispose();
  await integrator.close();
});

describe('GET /metrics', () => {
  it('answers the Prometheus text format to the admin token or SVC_METRICS_TOKEN, 401 to anyone else', async () => {
    const chatId = (await postCustomerMessage(t.api, channel.endpoint, 'metrics-1', 'Hello')).body.chat_id;
    expect((await t.api.post(`/api/v1/chats/${chatId}/messages`, { type: 'text', text: 'Hi' }, agentToken)).status).toBe(201);
    const res = await fetch(`${t.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('svc_messages_total{channel_kind="chat_api",direction="received"} 1');
    // By the route's pattern: the path holds the endpoint's secret.
    expect(text).toContain('svc_http_request_duration_seconds_count{route="/chat-api/:random/:publicId",method="POST",status="200"} 1');
    expect(text).toContain('svc_http_request_duration_seconds_count{route="/api/v1/chats/:id/messages",method="POST",status="201"} 1');
    expect(text).toContain('svc_connected_sockets{side="visitor"} 0');
    expect(text).toContain('svc_nodejs_eventloop_lag_seconds');
    expect((await fetch(`${t.base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status).toBe(200);
    expect((await fetch(`${t.base}/metrics`)).status).toBe(401);
    expect((await fetch(`${t.base}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
  });
});

describe.skipIf(testDialect === 'postgres')('pnpm backup', () => {
  it('writes a consistent copy of the live database while customers keep writing', async () => {
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const res = await postCustomerMessage(t.api, channel.endpoint, `backup-${written % 20}`, `message ${written}`);
        expect(res.status).toBe(200);
        written++;
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const file = path.join(t.dir, 'copy.sqlite');
    const root = path.resolve(import.meta.dirname, '../..');
    const { stdout } = await run(process.execPath, [path.join(root, 'server/scripts/backup.mjs'), file], {
      env: { ...process.env, SVC_DB: t.dbPath },
    });
    const writtenDuringBackup = written;
    await new Promise((r) => setTimeout(r, 200));
    writing = false;
    await writer;
    expect(stdout).toContain('integrity ok');
    expect(written).toBeGreaterThan(writtenDuringBackup);

    const copy = new Database(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('foreign_key_check')).toEqual([]);
      const messages = copy.prepare("SELECT COUNT(*) FROM messages WHERE text LIKE 'message %'").pluck().get() as number;
      expect(messages).toBeGreaterThan(0);
      expect(messages).toBeLessThanOrEqual(written);
      // every chat in the copy points at a message that the copy holds: one snapshot, not pages of different moments
      expect(copy.prepare('SELECT COUNT(*) FROM chats WHERE last_message_id NOT IN (SELECT id FROM messages)').pluck().get()).toBe(0);
    } finally {
      copy.close();
    }
  });
});
