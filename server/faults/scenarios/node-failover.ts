import { createAgent, createChatApiChannel, sendAgentReply } from '../harness/fixtures.ts';
import { sleep, waitUntil } from '../harness/http-client.ts';
import { checkDeliveries, startIntegrator } from '../harness/integrator.ts';
import { intakeMessages, resendUnacknowledged, runIntakeLoad } from '../harness/intake-load.ts';
import type { ScenarioResult } from '../harness/report.ts';
import { checkStored } from '../harness/stored-check.ts';
import { SHORT_TIMEOUTS } from '../harness/server-process.ts';
import { startTarget } from '../harness/target.ts';

export interface FailoverSizes {
  messages: number;
  perSecond: number;
  chats: number;
}

// Each attempt may take longer than the integrator's 2 s, so the rows a node holds at the kill are in flight
// (not timed out and back to pending); the lease is twice that plus 10 s.
const ATTEMPT_TIMEOUT_MS = 5000;
const LEASE_MS = ATTEMPT_TIMEOUT_MS * 2 + 10_000;

/**
 * Two nodes behind nginx share the intake and the outbox. Mid-load one node is killed with SIGKILL and not
 * restarted: the other keeps answering through nginx, and sends the outbox rows the dead node had claimed
 * once their lease ends.
 */
export async function nodeFailover(sizes: FailoverSizes): Promise<ScenarioResult> {
  const started = Date.now();
  const failures: string[] = [];
  const integrator = await startIntegrator();
  // Until the kill, replies are accepted 2 s before the answer: both nodes hold rows in flight, and the dead
  // one never records its attempts.
  integrator.setDelay(2000);
  const server = await startTarget({ ...SHORT_TIMEOUTS, SVC_DELIVERY_INTERVAL_MS: String(ATTEMPT_TIMEOUT_MS) });
  try {
    const agent = await createAgent(server.base);
    const endpoint = await createChatApiChannel(server.base, integrator.url, agent);
    const messages = intakeMessages(`failover-${Date.now()}`, sizes.messages, sizes.chats);
    const load = runIntakeLoad(server.base, endpoint, messages, sizes.perSecond);
    const replying = { on: true };
    const sent: { messageId: number; recipient: string }[] = [];
    // Four agents reply at once, each to other customers.
    const replies = Promise.all(
      [0, 1, 2, 3].map(async (k) => {
        for (let i = 0; replying.on; i++) {
          const acked = messages.filter((m) => m.outcome === 'acked');
          const target = acked[(i * 4 + k) % Math.max(acked.length, 1)];
          if (target?.chatId !== undefined) {
            try {
              sent.push({ messageId: await sendAgentReply(server.base, agent, target.chatId, `reply ${i}`), recipient: target.senderId });
            } catch {
              // no 2xx: not acknowledged, so not expected at the integrator
            }
          }
          await sleep(5);
        }
      }),
    );

    const loadMs = (sizes.messages / sizes.perSecond) * 1000;
    await sleep(loadMs * (0.3 + Math.random() * 0.3));
    // A burst of replies to as many chats: each node claims the ones it took at once, and holds them for the
    // integrator's 2 s when the kill comes.
    const chatsNow = [...new Map(messages.filter((m) => m.outcome === 'acked').map((m) => [m.chatId!, m.senderId])).entries()];
    await Promise.all(
      chatsNow.map(async ([chatId, recipient]) => {
        try {
          sent.push({ messageId: await sendAgentReply(server.base, agent, chatId, `burst reply`), recipient });
        } catch {
          // no 2xx: not acknowledged, so not expected at the integrator
        }
      }),
    );
    // Kill at the first moment node 1 holds at least two rows in flight (a random moment within the load; each
    // row is held for the integrator's 2 s, so the kill comes well inside that).
    const holding = await waitUntil(async () => (await server.heldByFirstNode()).length >= 2, 10_000, 50);
    if (!holding) failures.push('node 1 never held two outbox rows in flight within 10 s of the burst');
    await server.kill();
    const killedAt = Date.now();
    // Nothing changes the dead node's claims until their lease ends: read them now.
    const held = await server.heldByFirstNode();
    integrator.setDelay(0);
    if (held.length === 0) failures.push('node 1 held no claimed outbox rows at the kill, so the takeover was not tested');
    await load.done;
    replying.on = false;
    await replies;

    const resent = await resendUnacknowledged(server.base, endpoint, messages);
    const unacked = messages.filter((m) => m.outcome !== 'acked').length;
    if (unacked > 0) failures.push(`${unacked} messages without a 2xx from the surviving node`);
    const stored = await checkStored(server.base, agent, messages);

    const arrived = await waitUntil(() => checkDeliveries(integrator.accepted, sent).missing === 0, LEASE_MS + 30_000, 200);
    if (!arrived) failures.push('agent replies still missing at the integrator after the lease');
    const check = checkDeliveries(integrator.accepted, sent);
    // The integrator counts a request when it arrives, so the dead node's rows count as arrived at once; node 2
    // sends them again only once their lease ends (up to LEASE_MS after the kill) and records each once answered.
    const deliveredHeld = async () => [...(await server.deliveryStates(held)).values()].filter((s) => s === 'delivered').length;
    await waitUntil(async () => (await deliveredHeld()) === held.length, Math.max(10_000, killedAt + LEASE_MS + 10_000 - Date.now()), 100);
    const heldDelivered = await deliveredHeld();
    if (heldDelivered !== held.length) failures.push(`${held.length - heldDelivered} of the dead node's claimed rows were not delivered`);
    const integrity = await server.integrity();
    if (integrity !== 'ok') failures.push(`database check: ${integrity}`);
    return {
      scenario: '5 two nodes, one killed',
      counts:
        `${sizes.messages} msgs @${sizes.perSecond}/s through nginx, ${messages.length - resent} acked before/after the kill without resend, ` +
        `${resent} resent; ${sent.length} agent replies`,
      missing: stored.missing + check.missing,
      duplicates: stored.duplicates + check.duplicates,
      orderViolations: check.orderViolations,
      failures,
      ms: Date.now() - started,
      notes: [
        `node 1 killed after ${((killedAt - started) / 1000).toFixed(1)} s holding ${held.length} claimed outbox rows; ` +
          `all ${heldDelivered} delivered by node 2 after the lease (${LEASE_MS / 1000} s)`,
        `${check.redelivered} replies in flight at the kill were sent again with the same webhook-id (the integrator drops them by it)`,
      ],
    };
  } finally {
    await server.dispose();
    await integrator.close();
  }
}
