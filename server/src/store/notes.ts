import type { MessageRecord } from './records.ts';

/** Where a transfer sends a chat: one agent, or a department's queue (no agent, open to the department). */
export type TransferTarget = { agentId: number } | { departmentId: number };

export interface NewTransfer {
  chatId: number;
  to: TransferTarget;
  /** The agent who passes the chat on. */
  byAgentId: number;
  /** The chat's history line saying who passed it to whom (an internal system message). */
  record: string;
  /** The passing agent's note to the receiver, kept as a private note. */
  note: string | null;
}

/**
 * Private notes: messages of a chat that only its channel's agents see. They are never a chat's last message
 * (the chat's order and the widget's preview stay the customer's conversation) and leave through no outbox.
 */
export interface NotesRepo {
  /** Stores a note by an agent. */
  append(chatId: number, agentId: number, text: string): Promise<MessageRecord>;
  /** One unit of work: the chat goes to the target (a department's queue clears the agent), with its record
   * and the note. Undefined when the chat is closed. */
  transfer(input: NewTransfer): Promise<MessageRecord[] | undefined>;
}
