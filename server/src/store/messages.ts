import type { MessageRecord } from './records.ts';

export interface MessagesRepo {
  listByChat(chatId: number): Promise<MessageRecord[]>;
  findById(id: number): Promise<MessageRecord | undefined>;
}
