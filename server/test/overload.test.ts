import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createChatApiChannel, postCustomerMessage, type TestAgent, type TestChannel } from './support/fixtures.ts';
import { testDialect } from './support/test-db.ts';
import { ADMIN_TOKEN, startTestServer, type ApiResponse, type TestServer } from './support/test-server.ts';

const LIMIT = 2;
let t: TestServer;
let agent: TestAgent;
let channel: TestChannel;

beforeAll(async () => {
  t = await startTestServer({ SVC_MAX_IN_FLIGHT: String(LIMIT), SVC_ADMISSION: 'fixed', SVC_RATE_LIMITS: 'off' });
  agent = await createAgent(t.api);
  channel = await createChatApiChannel(t.api, { webhook_url: 'http://127.0.0.1:9/none', agent_ids: [agent.id] });
});
afterAll(() => t.dispose());

/** Another connection holding the database's write lock, as a slow or stuck store would: the server's writes wait. */
async function holdWriteLock(): Promise<{ release(): Promise<void> }> {
  if (testDialect === 'sqlite') {
    const other = new Database(t.dbPath);
    other.exec('BEGIN IMMEDIATE');
    return { release: async () => void (other.exec('ROLLBACK'), other.close()) };
  }
  const other = new pg.Client({ connectionString: t.dbPath });
  await other.connect();
  await other.query('BEGIN');
  await other.query('LOCK TABLE messages, chats IN EXCLUSIVE MODE');
  return { release: async () => void (await other.query('ROLLBACK'), await other.end()) };
}

async function until(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 25));
  expect(condition()).toBe(true);
}

describe('chat api intake under overload', () => {
  it('refuses what exceeds SVC_MAX_IN_FLIGHT with 503 and Retry-After, and stores every message it answered 2xx', async () => {
    const first = await postCustomerMessage(t.api, channel.endpoint, 'crowd', 'before the rush');
    expect(first.status).toBe(200);
    const securityHeaders = (res: ApiResponse) =>
      ['x-content-type-options', 'content-security-policy', 'x-frame-options', 'cache-control'].map((h) => res.headers.get(h));
    const lock = await holdWriteLock();
    const answers: (ApiResponse | undefined)[] = Array(12).fill(undefined);
    const sent = answers.map((_, i) =>
      postCustomerMessage(t.api, channel.endpoint, 'crowd', `rush ${i}`).then((res) => (answers[i] = res)),
    );
    try {
      // While the store is stuck, the admitted requests wait and every other one is refused at once.
      await until(() => answers.filter((a) => a !== undefined).length === answers.length - LIMIT);
      await new Promise((r) => setTimeout(r, 200));
      expect(answers.filter((a) => a === undefined)).toHaveLength(LIMIT);
      for (const refused of answers.filter((a) => a !== undefined)) {
        expect(refused.status).toBe(503);
        expect(refused.body.error.code).toBe('overloaded');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(securityHeaders(refused)).toEqual(securityHeaders(first));
      }
    } finally {
      await lock.release();
    }
    await Promise.all(sent);
    const accepted = answers.filter((a) => a!.status === 200);
    expect(accepted).toHaveLength(LIMIT);

    const history = (await t.api.get(`/api/v1/chats/${first.body.chat_id}/messages`, agent.token)).body.messages as {
      id: number;
      text: string;
    }[];
    const rush = history.filter((m) => m.text.startsWith('rush '));
    expect(rush.map((m) => m.id).sort()).toEqual(accepted.map((a) => a!.body.message_id).sort());
    expect(rush).toHaveLength(LIMIT);

    // Each refusal is counted for operators, by why it was refused.
    const metrics = await (await fetch(`${t.base}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    expect(metrics).toContain(`svc_http_refused_total{reason="in_flight"} ${answers.length - LIMIT}`);

    // The node takes new messages again as soon as the store keeps up.
    const after = await postCustomerMessage(t.api, channel.endpoint, 'crowd', 'after the rush');
    expect(after.status).toBe(200);
  });
});
