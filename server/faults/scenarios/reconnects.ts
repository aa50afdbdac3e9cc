import { chatMessages, createAgent, createWidgetChannel, sendAgentReply } from '../harness/fixtures.ts';
import { sleep, waitUntil } from '../harness/http-client.ts';
import type { ScenarioResult } from '../harness/report.ts';
import { startTarget } from '../harness/target.ts';
import { startVisitor, type Visitor } from '../harness/visitor-client.ts';

export interface ReconnectSizes {
  clients: number;
  agentMessages: number;
  clientMessages: number;
  /** Time between two agent messages in one chat. */
  agentEveryMs: number;
  dropMs: [number, number];
  upMs: [number, number];
}

const between = ([low, high]: [number, number]) => low + Math.random() * (high - low);

/**
 * Widget visitors whose connections keep dropping and coming back, while an agent writes to each and each
 * writes too: everyone ends with every message once and in order, and the server stores each visitor
 * message once.
 */
export async function reconnects(sizes: ReconnectSizes): Promise<ScenarioResult> {
  const started = Date.now();
  const server = await startTarget();
  const visitors: Visitor[] = [];
  const failures: string[] = [];
  try {
    const agent = await createAgent(server.base);
    const widgetId = await createWidgetChannel(server.base, agent);
    for (let i = 0; i < sizes.clients; i++) visitors.push(startVisitor(server.base, widgetId, `visitor${i}`));
    // The first message opens each visitor's chat.
    for (const v of visitors) v.send(`${v.name} says 0`);
    if (!(await waitUntil(() => visitors.every((v) => v.chatId() !== undefined), 20_000))) throw new Error('chats did not open');

    let toggling = true;
    const toggles = visitors.map(async (v, i) => {
      let drops = 0;
      while (toggling) {
        await sleep(between(sizes.upMs));
        if (!toggling) break;
        v.drop(drops++ % 2 === i % 2);
        await sleep(between(sizes.dropMs));
        v.reconnect();
      }
      return drops;
    });
    const writes = visitors.map(async (v) => {
      for (let n = 1; n < sizes.clientMessages; n++) {
        await sleep((sizes.agentMessages * sizes.agentEveryMs) / sizes.clientMessages);
        v.send(`${v.name} says ${n}`);
        // Every third message the connection drops right behind it: it reaches the server, its
        // acknowledgement is lost, and it goes again with the same client_msg_id after the reconnection.
        if (n % 3 === 0) v.drop(true);
      }
    });
    const agentTexts = visitors.map((v) => Array.from({ length: sizes.agentMessages }, (_, n) => `to ${v.name}: ${n}`));
    const agentIds: number[][] = visitors.map(() => []);
    await Promise.all(
      visitors.map(async (v, i) => {
        for (const text of agentTexts[i]!) {
          agentIds[i]!.push(await sendAgentReply(server.base, agent, v.chatId()!, text));
          await sleep(sizes.agentEveryMs);
        }
      }),
    );
    await Promise.all(writes);
    toggling = false;
    const drops = (await Promise.all(toggles)).reduce((a, b) => a + b, 0);
    // As the widget does, a visitor whose connection is down connects again: a drop still closing when the
    // toggling ended leaves its socket down after the first reconnect() found it up.
    const settled = await waitUntil(() => {
      for (const v of visitors) v.reconnect();
      return visitors.every((v, i) => v.connected() && v.pending() === 0 && v.agentTexts().length >= agentTexts[i]!.length);
    }, 30_000);
    if (!settled) {
      const behind = visitors
        .map((v, i) => ({ v, shown: v.agentTexts().length, expected: agentTexts[i]!.length }))
        .filter(({ v, shown, expected }) => !v.connected() || v.pending() > 0 || shown < expected)
        .map(({ v, shown, expected }) => `${v.name} (connected ${v.connected()}, ${v.pending()} unsent, ${shown}/${expected} shown)`);
      failures.push(`not every visitor was connected with an empty outbox and every agent message within 30 s: ${behind.join('; ')}`);
    }

    let missing = 0;
    let doubled = 0;
    let orderViolations = 0;
    for (const [i, v] of visitors.entries()) {
      const shown = v.agentTexts();
      const expected = agentTexts[i]!;
      missing += expected.filter((t) => !shown.includes(t)).length;
      doubled += shown.length - new Set(shown).size + v.liveRepeats();
      // Shown in message id order, the texts must be the order the agent wrote them in.
      const inOrder = shown.filter((t) => expected.includes(t));
      orderViolations += inOrder.filter((t, k) => k > 0 && expected.indexOf(t) < expected.indexOf(inOrder[k - 1]!)).length;
      orderViolations += v.liveInversions();
      if (agentIds[i]!.some((id, k) => k > 0 && id < agentIds[i]![k - 1]!)) orderViolations += 1;
      // The server keeps each visitor message once.
      const stored = (await chatMessages(server.base, agent, v.chatId()!)).filter((m) => m.author === 'client').map((m) => m.text);
      for (let n = 0; n < sizes.clientMessages; n++) {
        const count = stored.filter((t) => t === `${v.name} says ${n}`).length;
        if (count === 0) missing += 1;
        if (count > 1) doubled += count - 1;
      }
    }
    return {
      scenario: '3 visitor reconnects',
      counts:
        `${sizes.clients} visitors × (${sizes.agentMessages} agent + ${sizes.clientMessages} visitor msgs), ` +
        `${drops} drops of ${sizes.dropMs[0] / 1000}–${sizes.dropMs[1] / 1000} s`,
      missing,
      duplicates: doubled,
      orderViolations,
      failures,
      ms: Date.now() - started,
      notes: [
        `${visitors.reduce((a, v) => a + v.sessions(), 0)} sessions in all; half the drops close the transport, half disconnect; ` +
          `${visitors.reduce((a, v) => a + v.resends(), 0)} visitor messages lost their acknowledgement and went again with the same client_msg_id`,
      ],
    };
  } finally {
    for (const v of visitors) v.close();
    await server.stop();
    await server.dispose();
  }
}
