/** Per agent, how far each chat has been read; and a client's other chats in the channel. */
export interface ChatReadsRepo {
  /** The agent has seen the chat up to this message (a later mark never moves it back). */
  markRead(agentId: number, chatId: number, messageId: number): Promise<void>;
  /** Client messages after the agent's last read, per chat; chats with none are left out. */
  unreadCounts(agentId: number, chatIds: number[]): Promise<Map<number, number>>;
  /** The ids of the other chats of this chat's client, newest first. */
  otherChatsOfClient(chatId: number, limit: number): Promise<number[]>;
}
