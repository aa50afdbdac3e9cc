import { request, sleep } from './http-client.ts';

/** One customer message of the load, with what became of it. */
export interface IntakeMessage {
  key: string;
  senderId: string;
  text: string;
  /** `acked`: a 2xx answer; `refused`: another answer; `unanswered`: no answer at all; `unsent`: never sent. */
  outcome: 'acked' | 'refused' | 'unanswered' | 'unsent';
  status?: number;
  /** Why there was no answer: ECONNREFUSED (never reached the server), ECONNRESET... */
  error?: string;
  chatId?: number;
}

/** `count` customer messages from `senders` customers, each with its own Idempotency-Key. */
export function intakeMessages(prefix: string, count: number, senders: number): IntakeMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `${prefix}-key-${i}`,
    senderId: `${prefix}-customer-${i % senders}`,
    text: `${prefix} message ${i}`,
    outcome: 'unsent' as const,
  }));
}

/** Posts one message to the Chat API endpoint and records the outcome on it. */
export async function postIntake(base: string, endpoint: string, m: IntakeMessage): Promise<void> {
  try {
    const answer = await request('POST', `${base}${endpoint}`, {
      headers: { 'idempotency-key': m.key },
      body: { sender: { id: m.senderId }, message: { type: 'text', text: m.text } },
    });
    m.status = answer.status;
    // The service never answers 502: that is nginx saying the node went away mid-request, which is no answer,
    // as a reset connection is for a client talking to the node itself.
    if (answer.status === 502) {
      m.outcome = 'unanswered';
      m.error = '502 from nginx';
      return;
    }
    m.outcome = answer.status >= 200 && answer.status < 300 ? 'acked' : 'refused';
    if (m.outcome === 'acked') m.chatId = answer.body.chat_id;
  } catch (err) {
    m.outcome = 'unanswered';
    m.error = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}

/**
 * Sends the messages at about `perSecond`, without waiting for answers (at most `maxInFlight` at once).
 * `halt()` stops sending further ones; `done` resolves when every sent one has its outcome.
 */
export function runIntakeLoad(base: string, endpoint: string, messages: IntakeMessage[], perSecond: number, maxInFlight = 256) {
  let halted = false;
  let inFlight = 0;
  const pending: Promise<void>[] = [];
  const done = (async () => {
    const started = Date.now();
    for (let i = 0; i < messages.length && !halted; i++) {
      const dueAt = started + (i * 1000) / perSecond;
      if (dueAt > Date.now()) await sleep(dueAt - Date.now());
      while (inFlight >= maxInFlight && !halted) await sleep(5);
      if (halted) break;
      inFlight += 1;
      pending.push(postIntake(base, endpoint, messages[i]!).finally(() => (inFlight -= 1)));
    }
    await Promise.all(pending);
  })();
  return {
    done,
    halt: () => void (halted = true),
    sentCount: () => pending.length,
  };
}

/** Sends again, with the same Idempotency-Key, every message that has no 2xx yet (after a restart). */
export async function resendUnacknowledged(base: string, endpoint: string, messages: IntakeMessage[], concurrency = 32): Promise<number> {
  const todo = messages.filter((m) => m.outcome !== 'acked');
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < todo.length) await postIntake(base, endpoint, todo[next++]!);
    }),
  );
  return todo.length;
}
