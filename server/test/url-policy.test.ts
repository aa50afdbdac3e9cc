import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../src/lib/outbound-url.ts';
import { postJson } from '../src/lib/post-json.ts';
import { ADMIN_TOKEN, startTestServer, type TestServer } from './support/test-server.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ SVC_ALLOW_PRIVATE_URLS: '0' });
});
afterAll(() => t.dispose());

const create = (webhook_url: string) =>
  t.api.post('/api/v1/channels', { kind: 'chat_api', name: 'x', webhook_url, agent_ids: [] }, ADMIN_TOKEN);

describe('outbound URL policy without SVC_ALLOW_PRIVATE_URLS', () => {
  it.each([
    'http://127.0.0.1:8080/hook',
    'https://localhost/hook',
    'https://10.1.2.3/hook',
    'https://[::1]/hook',
    'https://169.254.169.254/latest',
  ])('refuses %s when a channel is saved', async (url) => {
    const res = await create(url);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/private or loopback/);
  });

  it('refuses plain http to a public address', async () => {
    const res = await create('http://93.184.216.34/hook');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/https/);
  });

  it('refuses to connect to a private address at send time too', async () => {
    await expect(postJson('http://127.0.0.1:9/x', '{}', { timeoutMs: 1000, policy: { allowPrivate: false } })).rejects.toThrow(/private/);
    await expect(postJson('http://localhost:9/x', '{}', { timeoutMs: 1000, policy: { allowPrivate: false } })).rejects.toThrow(/private/);
  });

  it('knows private ranges, IPv4-mapped IPv6 included', () => {
    for (const ip of ['127.0.0.1', '10.0.0.1', '192.168.1.1', '172.16.0.1', '::1', 'fc00::1', '::ffff:127.0.0.1', '0.0.0.0'])
      expect(isPrivateAddress(ip)).toBe(true);
    for (const ip of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) expect(isPrivateAddress(ip)).toBe(false);
  });
});
