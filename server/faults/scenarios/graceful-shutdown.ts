import { createAgent, createChatApiChannel, createWidgetChannel, sendAgentReply } from '../harness/fixtures.ts';
import { must, sleep, waitUntil } from '../harness/http-client.ts';
import { checkDeliveries, startIntegrator } from '../harness/integrator.ts';
import { intakeMessages, resendUnacknowledged, runIntakeLoad } from '../harness/intake-load.ts';
import type { ScenarioResult } from '../harness/report.ts';
import { integrityCheckName, startTarget } from '../harness/target.ts';
import { checkStored, storedCounts } from '../harness/stored-check.ts';
import { startVisitor, type Visitor } from '../harness/visitor-client.ts';

export interface ShutdownSizes {
  perSecond: number;
  visitors: number;
  /** Load before the SIGTERM. */
  loadMs: number;
  replies: number;
}

// spec: the process exits 0 within 10 s of SIGTERM (docs/operators.md#shutdown).
const EXIT_WITHIN_MS = 10_000;

/**
 * SIGTERM while customers post through the Chat API, visitors are connected and agent replies wait for an
 * integrator that answers 503: every answered request is a 2xx or a clean refusal, every 2xx message is
 * stored, the process exits 0 in time, and the pending replies go out after the restart.
 */
export async function gracefulShutdown(sizes: ShutdownSizes): Promise<ScenarioResult> {
  const started = Date.now();
  const integrator = await startIntegrator();
  // The interval is also each attempt's timeout: at 300 ms, a node just restarted on a loaded machine sometimes read
  // the integrator's answers too late and sent them again (same webhook-id; 3 runs of 8 at load 7-9), which is
  // allowed, but which this scenario counts as redelivered.
  let server = await startTarget({ SVC_DELIVERY_ATTEMPTS: '100', SVC_DELIVERY_INTERVAL_MS: '1000' });
  const visitors: Visitor[] = [];
  const failures: string[] = [];
  try {
    const agent = await createAgent(server.base);
    const endpoint = await createChatApiChannel(server.base, integrator.url, agent);
    const widgetId = await createWidgetChannel(server.base, agent);
    for (let i = 0; i < sizes.visitors; i++) visitors.push(startVisitor(server.base, widgetId, `sd-visitor${i}`));
    for (const v of visitors) v.send(`${v.name} says hello`);
    if (!(await waitUntil(() => visitors.every((v) => v.pending() === 0), 20_000))) throw new Error('visitors did not connect');

    // Replies that wait in the outbox: the integrator answers 503 until after the restart.
    await integrator.setMode('503');
    const replies: { messageId: number; recipient: string }[] = [];
    for (let i = 0; i < sizes.replies; i++) {
      const recipient = `sd-waiting-${i}`;
      const inbound = await must('POST', `${server.base}${endpoint}`, 200, {
        body: { sender: { id: recipient }, message: { type: 'text', text: 'waiting' } },
      });
      replies.push({ messageId: await sendAgentReply(server.base, agent, inbound.chat_id, `pending reply ${i}`), recipient });
    }

    const messages = intakeMessages(`sd-${Date.now()}`, Math.ceil((sizes.perSecond * (sizes.loadMs + EXIT_WITHIN_MS)) / 1000), 100);
    const load = runIntakeLoad(server.base, endpoint, messages, sizes.perSecond);
    // The visitors keep writing too.
    const chatter = setInterval(() => visitors[Math.floor(Math.random() * visitors.length)]!.send('still here'), 20);
    await sleep(sizes.loadMs);
    const { code, ms: exitMs } = await server.stop();
    load.halt();
    clearInterval(chatter);
    await load.done;
    if (code !== 0) failures.push(`exit code ${code} after SIGTERM`);
    if (exitMs > EXIT_WITHIN_MS) failures.push(`exit took ${exitMs} ms`);
    const sent = load.sentCount();
    const acked = messages.filter((m) => m.outcome === 'acked').length;
    const refused = messages.filter((m) => m.outcome === 'refused');
    const unclean = refused.filter((m) => m.status !== 503);
    if (unclean.length > 0)
      failures.push(`${unclean.length} answers were neither 2xx nor 503 (${[...new Set(unclean.map((m) => m.status))].join(', ')})`);
    const unanswered = messages.filter((m) => m.outcome === 'unanswered');
    const errors = [...new Set(unanswered.map((m) => m.error))].join(', ');

    server = await server.restart();
    await integrator.setMode('ok');
    for (const v of visitors) v.reconnect();
    // A request the server took in but never answered would show here, stored before it is sent again.
    const before = await storedCounts(server.base, agent, messages.slice(0, sent));
    const takenUnanswered = unanswered.filter((m) => (before.get(m.text) ?? 0) > 0).length;
    if (takenUnanswered > 0) failures.push(`${takenUnanswered} requests were stored but never answered`);
    await resendUnacknowledged(server.base, endpoint, messages.slice(0, sent));
    const stored = await checkStored(server.base, agent, messages.slice(0, sent));
    const resumed = await waitUntil(() => checkDeliveries(integrator.accepted, replies).missing === 0, 20_000, 200);
    if (!resumed) failures.push('pending replies were not delivered after the restart');
    const delivery = checkDeliveries(integrator.accepted, replies);
    if (!(await waitUntil(() => visitors.every((v) => v.connected() && v.pending() === 0), 20_000))) {
      failures.push('visitor messages still unacknowledged after the restart');
    }
    const stop = await server.stop();
    if (stop.code !== 0) failures.push(`exit code ${stop.code} on the second SIGTERM`);
    const integrity = await server.integrity();
    if (integrity !== 'ok') failures.push(`${integrityCheckName()}: ${integrity}`);
    return {
      scenario: '4 SIGTERM under load',
      counts:
        `${sent} msgs @${sizes.perSecond}/s + ${sizes.visitors} visitors: ${acked} 2xx, ${refused.length} refused, ` +
        `${unanswered.length} unanswered; ${replies.length} pending replies, ${delivery.delivered} delivered after restart`,
      missing: stored.missing + delivery.missing,
      duplicates: stored.duplicates + delivery.duplicates + delivery.redelivered,
      orderViolations: delivery.orderViolations,
      failures,
      ms: Date.now() - started,
      notes: [
        `SIGTERM after ${sizes.loadMs / 1000} s of load; exit code ${code} after ${exitMs} ms; ${integrityCheckName()} ${integrity}`,
        `requests without an answer failed with ${errors || 'nothing'}; none of them was stored before it was sent again`,
      ],
    };
  } finally {
    for (const v of visitors) v.close();
    await server.dispose();
    await integrator.close();
  }
}
