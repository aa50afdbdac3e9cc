import type { MessageRecord } from './records.ts';

export interface MessagesRepo {
  /** What the client's side may see of a chat (transcripts, webhooks): private notes left out. */
  listByChat(chatId: number): Promise<MessageRecord[]>;
  /** The whole chat as its agents see it, private notes included. */
  listForAgents(chatId: number): Promise<MessageRecord[]>;
  findById(id: number): Promise<MessageRecord | undefined>;
}
