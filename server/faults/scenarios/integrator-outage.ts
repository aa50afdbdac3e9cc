import { createAgent, createChatApiChannel, sendAgentReply } from '../harness/fixtures.ts';
import { must, sleep, waitUntil } from '../harness/http-client.ts';
import { checkDeliveries, startIntegrator } from '../harness/integrator.ts';
import type { ScenarioResult } from '../harness/report.ts';
import { startTarget } from '../harness/target.ts';

export interface OutageSizes {
  messages: number;
  chats: number;
  outageMs: number;
}

// Spec defaults (3 attempts, 3 s apart) give up after about 9 s by design; retries must outlast the outage.
const ATTEMPTS = 10;
const INTERVAL_MS = 1000;
/** Ten attempts a second apart span 9 s: an outage of at most 7.5 s leaves the first replies two of them. */
const MAX_OUTAGE_MS = 7500;

/**
 * Agents reply in many chats while the integrator first answers 503, then refuses connections, then
 * recovers: every reply arrives once (by webhook-id), in its chat's order.
 */
export async function integratorOutage(sizes: OutageSizes): Promise<ScenarioResult> {
  const started = Date.now();
  const integrator = await startIntegrator();
  const server = await startTarget({ SVC_DELIVERY_ATTEMPTS: String(ATTEMPTS), SVC_DELIVERY_INTERVAL_MS: String(INTERVAL_MS) });
  const failures: string[] = [];
  try {
    const agent = await createAgent(server.base);
    const endpoint = await createChatApiChannel(server.base, integrator.url, agent);
    const chats: { chatId: number; recipient: string }[] = [];
    for (let i = 0; i < sizes.chats; i++) {
      const recipient = `outage-customer-${i}`;
      const body = await must('POST', `${server.base}${endpoint}`, 200, {
        body: { sender: { id: recipient }, message: { type: 'text', text: 'hello' } },
      });
      chats.push({ chatId: body.chat_id, recipient });
    }

    await integrator.setMode('503');
    const outageStart = Date.now();
    let outageEnd = Infinity;
    const outage = (async () => {
      await sleep(sizes.outageMs / 2);
      await integrator.setMode('down');
      await sleep(outageStart + sizes.outageMs - Date.now());
      // A loaded machine makes replies slowly: the outage lasts until half were made, within what the retries outlast.
      await waitUntil(() => sent.length >= sizes.messages / 2, MAX_OUTAGE_MS - sizes.outageMs, 50);
      outageEnd = Date.now();
      await integrator.setMode('ok');
    })();
    // One sender per chat, so each chat's replies are made in a known order.
    const perChat = Math.ceil(sizes.messages / sizes.chats);
    const sent: { messageId: number; recipient: string }[] = [];
    let duringOutage = 0;
    await Promise.all(
      chats.map(async ({ chatId, recipient }, c) => {
        for (let i = 0; i < perChat && c * perChat + i < sizes.messages; i++) {
          sent.push({ messageId: await sendAgentReply(server.base, agent, chatId, `reply ${c}/${i}`), recipient });
          if (Date.now() < outageEnd) duringOutage += 1;
        }
      }),
    );
    await outage;
    const settled = await waitUntil(() => checkDeliveries(integrator.accepted, sent).missing === 0, ATTEMPTS * INTERVAL_MS + 30_000, 200);
    if (!settled) failures.push('not every reply arrived before the deadline');
    // A very slow machine may still be sending when the integrator is back; the outage must have caught many.
    if (duringOutage < sent.length / 4) failures.push(`only ${duringOutage} replies were made during the outage`);
    const check = checkDeliveries(integrator.accepted, sent);
    if (check.redelivered > 0) failures.push(`${check.redelivered} replies accepted twice with one webhook-id without a crash`);
    return {
      scenario: '1 integrator outage',
      counts: `${sent.length} agent msgs / ${sizes.chats} chats, ${check.delivered} delivered`,
      missing: check.missing,
      duplicates: check.duplicates + check.redelivered,
      orderViolations: check.orderViolations,
      failures,
      ms: Date.now() - started,
      notes: [
        `integrator answered 503 for ${sizes.outageMs / 2000} s, then refused connections for ` +
          `${((outageEnd - outageStart - sizes.outageMs / 2) / 1000).toFixed(1)} s; ` +
          `${duringOutage} replies made during the outage, ${integrator.refused()} attempts answered 503`,
        `SVC_DELIVERY_ATTEMPTS=${ATTEMPTS}, SVC_DELIVERY_INTERVAL_MS=${INTERVAL_MS}: the defaults (3 attempts, 3000 ms) ` +
          'give up after about 9 s (6 s when connections are refused) by design, and would fail this outage',
      ],
    };
  } finally {
    await server.stop();
    await server.dispose();
    await integrator.close();
  }
}
