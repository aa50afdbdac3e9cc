/** A saved reply: the team's (agentId null) or one agent's own. */
export interface CannedReplyRecord {
  id: number;
  agentId: number | null;
  shortcut: string;
  text: string;
  createdAt: number;
}

export interface CannedReplyRow {
  id: number;
  agent_id: number | null;
  shortcut: string;
  text: string;
  created_at: number;
}

export const toCannedReply = (r: CannedReplyRow): CannedReplyRecord => ({
  id: r.id,
  agentId: r.agent_id,
  shortcut: r.shortcut,
  text: r.text,
  createdAt: r.created_at,
});

/** The shortcut is already used in that scope (the team's, or the agent's own). */
export class ShortcutTaken extends Error {
  constructor(shortcut: string) {
    super(`shortcut: "/${shortcut}" is already used`);
  }
}

export interface CannedRepliesRepo {
  /** The team's replies and the agent's own, by shortcut. */
  listFor(agentId: number): Promise<CannedReplyRecord[]>;
  findById(id: number): Promise<CannedReplyRecord | undefined>;
  /** Throws ShortcutTaken. */
  create(input: { agentId: number | null; shortcut: string; text: string }): Promise<CannedReplyRecord>;
  /** Throws ShortcutTaken; undefined when there is no such reply. */
  update(id: number, patch: { shortcut?: string; text?: string }): Promise<CannedReplyRecord | undefined>;
  delete(id: number): Promise<boolean>;
}
