import { createAgent, createChatApiChannel, sendAgentReply, type Agent } from '../harness/fixtures.ts';
import { sleep, waitUntil } from '../harness/http-client.ts';
import { checkDeliveries, startIntegrator, type Integrator } from '../harness/integrator.ts';
import { intakeMessages, resendUnacknowledged, runIntakeLoad, type IntakeMessage } from '../harness/intake-load.ts';
import type { ScenarioResult } from '../harness/report.ts';
import { SHORT_LEASE_MS, SHORT_TIMEOUTS } from '../harness/server-process.ts';
import { integrityCheckName, startTarget } from '../harness/target.ts';
import { checkStored } from '../harness/stored-check.ts';

export interface SigkillSizes {
  runs: number;
  messages: number;
  perSecond: number;
}

const debug = (line: string) => void (process.env.FAULTS_DEBUG && process.stderr.write(`${new Date().toISOString()} ${line}\n`));

interface RunTotals {
  acked: number;
  resent: number;
  missing: number;
  duplicates: number;
  replies: number;
  repliesMissing: number;
  repliesDuplicated: number;
  repliesRedelivered: number;
  pendingAtKill: number;
  orderViolations: number;
  failures: string[];
}

/**
 * Customers post through the Chat API, each message with its own Idempotency-Key, while agents reply;
 * the server is killed with SIGKILL at a random moment, restarted on the same file, and the unanswered
 * messages are sent again with the same keys.
 */
export async function sigkillDuringIntake(sizes: SigkillSizes): Promise<ScenarioResult> {
  const started = Date.now();
  const totals: RunTotals = {
    acked: 0,
    resent: 0,
    missing: 0,
    duplicates: 0,
    replies: 0,
    repliesMissing: 0,
    repliesDuplicated: 0,
    repliesRedelivered: 0,
    pendingAtKill: 0,
    orderViolations: 0,
    failures: [],
  };
  const killedAt: string[] = [];
  for (let run = 0; run < sizes.runs; run++) {
    // A new integrator per run: message ids start again in each run's new database.
    const integrator = await startIntegrator();
    try {
      killedAt.push(await oneRun(run, sizes, integrator, totals));
    } finally {
      await integrator.close();
    }
  }
  return {
    scenario: '2 SIGKILL during intake',
    counts:
      `${sizes.runs} runs × ${sizes.messages} msgs @${sizes.perSecond}/s: ${totals.acked} acked before kill, ${totals.resent} resent; ` +
      `${totals.replies} agent replies`,
    missing: totals.missing + totals.repliesMissing,
    duplicates: totals.duplicates + totals.repliesDuplicated,
    orderViolations: totals.orderViolations,
    failures: totals.failures,
    ms: Date.now() - started,
    notes: [
      `killed after ${killedAt.join(', ')} of intake; ${integrityCheckName()} ok after every run unless listed below`,
      `${totals.pendingAtKill} acknowledged agent replies had not reached the integrator at the kill; ` +
        `${totals.repliesRedelivered} agent replies in flight at the kill were sent again with the same webhook-id ` +
        '(allowed after a crash: the integrator drops them by webhook-id)',
    ],
  };
}

async function oneRun(run: number, sizes: SigkillSizes, integrator: Integrator, totals: RunTotals): Promise<string> {
  let server = await startTarget(SHORT_TIMEOUTS);
  try {
    const agent = await createAgent(server.base);
    const endpoint = await createChatApiChannel(server.base, integrator.url, agent);
    // Every other run the integrator answers 503 until the restart, so the replies are still pending at the kill;
    // in the others it accepts each reply 20 ms before it answers, so some are accepted by it but still in
    // flight for the server when the process dies, and are sent again after the restart.
    if (run % 2 === 0) await integrator.setMode('503');
    else integrator.setDelay(20);
    const messages = intakeMessages(`kill${run}-${Date.now()}`, sizes.messages, 100);
    const load = runIntakeLoad(server.base, endpoint, messages, sizes.perSecond);
    const replying = { on: true };
    // Four agents' worth of replies at once, so that some are still pending at the kill.
    const replies = Promise.all([0, 1, 2, 3].map((k) => agentReplies(server.base, agent, messages, replying, k))).then((r) => r.flat());
    const killAfterMs = Math.round(((0.15 + Math.random() * 0.7) * sizes.messages * 1000) / sizes.perSecond);
    await sleep(killAfterMs);
    await server.kill();
    load.halt();
    replying.on = false;
    await load.done;
    const sentReplies = await replies;
    totals.pendingAtKill += checkDeliveries(integrator.accepted, sentReplies).missing;
    totals.acked += messages.filter((m) => m.outcome === 'acked').length;

    debug(`run ${run}: killed after ${killAfterMs} ms, ${sentReplies.length} replies`);
    server = await server.restart();
    await integrator.setMode('ok');
    debug(`run ${run}: restarted`);
    totals.resent += await resendUnacknowledged(server.base, endpoint, messages);
    const stillUnacked = messages.filter((m) => m.outcome !== 'acked').length;
    if (stillUnacked > 0) totals.failures.push(`run ${run}: ${stillUnacked} messages still without a 2xx after the restart`);
    debug(`run ${run}: resent`);
    const stored = await checkStored(server.base, agent, messages);
    totals.missing += stored.missing;
    totals.duplicates += stored.duplicates;

    const arrived = await waitUntil(() => checkDeliveries(integrator.accepted, sentReplies).missing === 0, SHORT_LEASE_MS + 20_000, 200);
    if (!arrived) totals.failures.push(`run ${run}: agent replies still missing at the integrator after the lease`);
    const check = checkDeliveries(integrator.accepted, sentReplies);
    debug(`run ${run}: replies arrived`);
    totals.replies += sentReplies.length;
    totals.repliesMissing += check.missing;
    totals.repliesDuplicated += check.duplicates;
    totals.repliesRedelivered += check.redelivered;
    totals.orderViolations += check.orderViolations;

    const { code } = await server.stop();
    if (code !== 0) totals.failures.push(`run ${run}: exit code ${code} on SIGTERM after the restart`);
    const integrity = await server.integrity();
    if (integrity !== 'ok') totals.failures.push(`run ${run}: ${integrityCheckName()}: ${integrity}`);
    return `${(killAfterMs / 1000).toFixed(1)} s`;
  } finally {
    await server.dispose();
  }
}

/** Replies to customers whose message was acknowledged, one after another, until told to stop. */
async function agentReplies(base: string, agent: Agent, messages: IntakeMessage[], replying: { on: boolean }, k: number) {
  const sent: { messageId: number; recipient: string }[] = [];
  for (let i = 0; replying.on; i++) {
    const acked = messages.filter((m) => m.outcome === 'acked');
    const target = acked[(i * 4 + k) % Math.max(acked.length, 1)];
    if (target?.chatId !== undefined) {
      try {
        sent.push({ messageId: await sendAgentReply(base, agent, target.chatId, `agent reply ${k}/${i}`), recipient: target.senderId });
      } catch {
        // no 2xx (the server is gone): not acknowledged, so not expected at the integrator
      }
    }
    await sleep(10);
  }
  return sent;
}
