import { afterAll, describe, expect, it } from 'vitest';
import { engineUnavailable, startPostgres } from '../../scripts/lib/engines.mjs';
import { startFakeIntegrator } from './support/fake-integrator.ts';
import { createAgent, createChatApiChannel, postCustomerMessage } from './support/fixtures.ts';
import { startTestServer } from './support/test-server.ts';

const pg = await startPostgres({ fsync: false }).catch((error: unknown) => {
  engineUnavailable(error);
  return undefined;
});
afterAll(() => pg?.stop());

describe.skipIf(!pg)('a PostgreSQL restart under a running node', () => {
  it('delays the replies waiting in the outbox, and the node sends them once the database is back', async () => {
    const integrator = await startFakeIntegrator(() => ({ status: 503 }));
    const t = await startTestServer(
      { SVC_DELIVERY_INTERVAL_MS: '200', SVC_DELIVERY_ATTEMPTS: '100' },
      undefined,
      pg!.createDatabase('outage'),
    );
    try {
      const agent = await createAgent(t.api);
      const channel = await createChatApiChannel(t.api, { webhook_url: integrator.url, agent_ids: [agent.id] });
      const inbound = await postCustomerMessage(t.api, channel.endpoint, 7, 'Is my order on its way?');
      const reply = await t.api.post(
        `/api/v1/chats/${inbound.body.chat_id}/messages`,
        { type: 'text', text: 'It left today.' },
        agent.token,
      );
      expect(reply.status).toBe(201);
      await integrator.waitFor(1);

      // Down for 3 s: the worker's claims fail meanwhile, and the API answers a JSON error, not a crash.
      const restarted = pg!.restart(3000);
      await new Promise((r) => setTimeout(r, 1000));
      const duringOutage = await t.api.get('/api/v1/chats?state=open', agent.token);
      expect(duringOutage.status).toBe(500);
      expect(duringOutage.body.error.code).toBe('internal');
      integrator.setResponder(() => ({ status: 200, body: { result: 'ok' } }));
      await restarted;

      const delivered = async () => {
        const messages = await t.api.get(`/api/v1/chats/${inbound.body.chat_id}/messages`, agent.token);
        return (
          messages.status === 200 && messages.body.messages.some((m: any) => m.text === 'It left today.' && m.delivery === 'delivered')
        );
      };
      const deadline = Date.now() + 15_000;
      while (!(await delivered())) {
        if (Date.now() > deadline) throw new Error('the reply was not delivered after the database came back');
        await new Promise((r) => setTimeout(r, 200));
      }
      const accepted = integrator.received.filter((r) => r.body?.message?.text === 'It left today.');
      expect(accepted.length).toBeGreaterThan(1);
    } finally {
      await t.dispose();
      await integrator.close();
    }
  });
});
