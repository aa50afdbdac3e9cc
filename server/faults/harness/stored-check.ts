import Database from 'better-sqlite3';
import { chatMessages, type Agent } from './fixtures.ts';
import type { IntakeMessage } from './intake-load.ts';

export interface StoredCheck {
  /** Acknowledged messages whose text is not in their chat. */
  missing: number;
  /** Messages whose text is stored more than once. */
  duplicates: number;
}

/** Reads every chat the messages went to through the agent API and counts each message's text there. */
export async function checkStored(base: string, agent: Agent, messages: IntakeMessage[]): Promise<StoredCheck> {
  const counts = await storedCounts(base, agent, messages);
  let missing = 0;
  let duplicates = 0;
  for (const m of messages) {
    const n = counts.get(m.text) ?? 0;
    if (m.outcome === 'acked' && n === 0) missing += 1;
    if (n > 1) duplicates += 1;
  }
  return { missing, duplicates };
}

/** How many times each customer text is stored in the chats the messages went to. */
export async function storedCounts(base: string, agent: Agent, messages: IntakeMessage[]): Promise<Map<string, number>> {
  const chatIds = [...new Set(messages.flatMap((m) => (m.chatId === undefined ? [] : [m.chatId])))];
  const counts = new Map<string, number>();
  for (const chatId of chatIds) {
    for (const m of await chatMessages(base, agent, chatId)) {
      if (m.author === 'client' && m.text !== undefined) counts.set(m.text, (counts.get(m.text) ?? 0) + 1);
    }
  }
  return counts;
}

/** `PRAGMA integrity_check` on a database file no process has open. */
export function integrityCheck(dbPath: string): string {
  const db = new Database(dbPath);
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}
