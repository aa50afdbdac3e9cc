import type { Logger } from 'pino';
import type { Store } from '../store/store.ts';
import type { ConversationService } from './conversation-service.ts';

/** Chats closed per query; each is its own unit of work, so a sweep never holds the database for long. */
const BATCH = 50;

/** The system message of a chat the service closed, in the words an agent reads in the conversation. */
export function autoCloseNote(autoCloseMs: number): string {
  const minutes = autoCloseMs / 60_000;
  const seconds = Math.round(autoCloseMs / 1000);
  const amount = Number.isInteger(minutes)
    ? `${minutes} minute${minutes === 1 ? '' : 's'}`
    : `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `Chat closed automatically after ${amount} without a message.`;
}

/**
 * Issue 24: chats whose visitor walked away end by themselves. Every `intervalMs` each channel with
 * `auto_close_minutes` has its idle live chats closed, read through the index of idle chats in small batches,
 * each closed as an agent's close is. Every node sweeps; a chat is closed by the one whose conditional
 * update wins, and only that one announces it. Idleness is the chat's stored last activity, so a restart
 * loses nothing.
 */
export function startAutoClose(deps: { store: Store; conversations: ConversationService; intervalMs: number; log: Logger }) {
  const { store, conversations, log } = deps;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function sweepChannel(channelId: number, autoCloseMs: number) {
    const idleSince = Date.now() - autoCloseMs;
    const note = autoCloseNote(autoCloseMs);
    for (;;) {
      const ids = await store.chats.listIdle(channelId, idleSince, BATCH);
      for (const id of ids) {
        if (stopped) return;
        await conversations.closeIdle(id, idleSince, note);
      }
      if (ids.length < BATCH) return;
    }
  }

  async function sweep() {
    for (const channel of await store.channels.withAutoClose()) {
      if (stopped) return;
      await sweepChannel(channel.id, channel.autoCloseMs);
    }
  }

  const tick = () => {
    if (running || stopped) return;
    running = sweep()
      .catch((err: unknown) => log.error({ err }, 'auto-close sweep failed'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  return {
    /** Runs a sweep now (tests, and the first one at start). */
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
