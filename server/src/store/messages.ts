import type { MessageRecord } from './records.ts';

export interface MessagesPage {
  /** Oldest first. */
  messages: MessageRecord[];
  /** The id to ask `before` for the older page; null when there is none. */
  next: number | null;
}

export interface MessagesRepo {
  /** What the client's side may see of a chat (transcripts, webhooks): private notes left out. */
  listByChat(chatId: number): Promise<MessageRecord[]>;
  /** The whole chat as its agents see it, private notes included. */
  listForAgents(chatId: number): Promise<MessageRecord[]>;
  /** The newest `limit` messages of the chat older than the message `before` (the newest of all when null);
   * private notes only `forAgents`. */
  pageByChat(chatId: number, limit: number, before: number | null, audience: 'forAgents' | 'forClient'): Promise<MessagesPage>;
  findById(id: number): Promise<MessageRecord | undefined>;
}

/** The page from the newest-first rows of a query asked for one more than `limit`. */
export function toMessagesPage(newestFirst: MessageRecord[], limit: number): MessagesPage {
  const messages = newestFirst.slice(0, limit).reverse();
  return { messages, next: newestFirst.length > limit ? messages[0]!.id : null };
}
