import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage } from './support/fixtures.ts';
import { apiClient, ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let t: TestServer | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

describe('a restart on the same database file', () => {
  it('keeps agents, channels, chats, messages and tokens', async () => {
    t = await startTestServer();
    const agent = await createAgent(t.api);
    const channel = await createChatApiChannel(t.api, { webhook_url: 'http://127.0.0.1:9/never', agent_ids: [agent.id] });
    const inbound = await postCustomerMessage(t.api, channel.endpoint, 5, 'remember me', { name: 'Eve' });
    await t.api.put('/api/v1/me/presence', { status: 'online' }, agent.token);

    t = await t.restart();
    expect((await t.api.get('/api/v1/agents', ADMIN_TOKEN)).body.agents).toContainEqual(
      expect.objectContaining({ id: agent.id, status: 'online' }),
    );
    const reread = (await t.api.get(`/api/v1/channels/${channel.id}`, ADMIN_TOKEN)).body;
    expect(reread.random_string).toBe(channel.random_string);
    const messages = await t.api.get(`/api/v1/chats/${inbound.body.chat_id}/messages`, agent.token);
    expect(messages.body.messages).toEqual([expect.objectContaining({ text: 'remember me', author: 'client' })]);
    const login = await t.api.post('/api/v1/auth/login', { email: agent.email, password: agent.password });
    expect(login.status).toBe(200);
    // The port is new (PORT=0), the secret part of the endpoint is not.
    const again = await postCustomerMessage(t.api, reread.endpoint, '5', 'same chat');
    expect(again.body.chat_id).toBe(inbound.body.chat_id);
  });
});

describe('the server process', () => {
  it('prints the chosen port for PORT=0, serves /healthz, and exits 0 on SIGTERM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-proc-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: '0', SVC_DB: path.join(dir, 'db.sqlite'), SVC_LOG_LEVEL: 'silent', SVC_ADMIN_TOKEN: '' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no port printed: ${out}`)), 15_000);
      child.stdout.on('data', () => {
        const m = /port (\d+)\)/.exec(out);
        if (m && /admin API token/.test(out)) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      });
    });
    expect(port).toBeGreaterThan(0);
    const api = apiClient(`http://127.0.0.1:${port}`);
    expect((await api.get('/healthz')).body).toEqual({ ok: true });
    const token = /admin API token \(shown once, keep it\): (\S+)/.exec(out)![1]!;
    expect((await api.get('/api/v1/agents', token)).status).toBe(200);
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start on a bad configuration, naming every bad variable', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, PORT: 'eighty', SVC_DB_SYNC: 'sometimes' },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(err).toMatch(/PORT/);
    expect(err).toMatch(/SVC_DB_SYNC/);
  });
});
