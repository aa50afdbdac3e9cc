/** How many chat and agent pairs are remembered: past it, the oldest half is forgotten (a pair forgotten only
 * costs its next message a statement that may leave it out, see agent-message.ts). */
const REMEMBERED = 20_000;

/**
 * What this node last saw of whether an agent has answered in a chat: the chat has its first agent answer and
 * the agent has written in it (their report rows are written then). Read with the chat on every agent request
 * (agent-chat-read.ts), so the message that follows knows, before its statement, whether it is one of those
 * firsts. Once true it stays true (only deleting the chat undoes it, and then there is no chat to write to);
 * false may be out of date, which only costs a statement of its own.
 */
export function createAgentAnswers() {
  const seen = new Map<string, boolean>();
  const key = (chatId: number, agentId: number) => `${chatId}:${agentId}`;
  return {
    saw(chatId: number, agentId: number, answered: boolean) {
      const k = key(chatId, agentId);
      // Map order is insertion order: a pair seen again moves to the newest end.
      seen.delete(k);
      seen.set(k, answered);
      if (seen.size > REMEMBERED) {
        let drop = seen.size / 2;
        for (const old of seen.keys()) {
          if (drop-- <= 0) break;
          seen.delete(old);
        }
      }
    },
    /** Undefined when this node has not seen the pair lately. */
    answered: (chatId: number, agentId: number): boolean | undefined => seen.get(key(chatId, agentId)),
  };
}

export type AgentAnswers = ReturnType<typeof createAgentAnswers>;
